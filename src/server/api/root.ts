import "server-only";
import { analyticsRouter } from "./routers/analytics";
import { auditRouter } from "./routers/audit";
import { blogsRouter } from "./routers/blogs";
import { imagesRouter } from "./routers/images";
import { importsRouter } from "./routers/imports";
import { keysRouter } from "./routers/keys";
import { membersRouter } from "./routers/members";
import { newslettersRouter } from "./routers/newsletters";
import { publicationRouter } from "./routers/publication";
import { subscribersRouter } from "./routers/subscribers";
import { tagsRouter } from "./routers/tags";
import { usageRouter } from "./routers/usage";
import { viewsRouter } from "./routers/views";
import { webhooksRouter } from "./routers/webhooks";
import { createTRPCRouter } from "./trpc";

/** Every router of the app; the REST surface and the dashboard are both served from here. */
export const appRouter = createTRPCRouter({
  blogs: blogsRouter,
  images: imagesRouter,
  imports: importsRouter,
  analytics: analyticsRouter,
  keys: keysRouter,
  members: membersRouter,
  newsletters: newslettersRouter,
  publication: publicationRouter,
  subscribers: subscribersRouter,
  tags: tagsRouter,
  usage: usageRouter,
  views: viewsRouter,
  webhooks: webhooksRouter,
  // Last: the API reference opens on the document's first tag, Blogs.
  audit: auditRouter,
});

export type AppRouter = typeof appRouter;
