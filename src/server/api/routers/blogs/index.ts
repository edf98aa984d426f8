import "server-only";
import { createTRPCRouter } from "../../trpc";
import { createBlogProcedure, editorCreateBlogProcedure } from "./create-blog";
import { deleteBlogProcedure } from "./delete-blog";
import { getBlogProcedure } from "./get-blog";
import { getBlogBySlugProcedure } from "./get-blog-by-slug";
import { listBlogsProcedure } from "./list-blogs";
import { getNewsletterProcedure } from "./newsletter";
import { previewsRouter } from "./previews";
import { authorChoicesProcedure, reviewRouter } from "./review";
import { getRevisionProcedure, listRevisionsProcedure, restoreRevisionProcedure } from "./revisions";
import { editorUpdateBlogProcedure, patchBlogProcedure, putBlogProcedure } from "./update-blog";

/** Blogs, for API keys (/api/v1) and their owner (/api/trpc) alike, each seeing its scope. */
export const blogsRouter = createTRPCRouter({
  list: listBlogsProcedure,
  get: getBlogProcedure,
  getBySlug: getBlogBySlugProcedure,
  create: createBlogProcedure,
  update: putBlogProcedure,
  patch: patchBlogProcedure,
  delete: deleteBlogProcedure,
  newsletter: getNewsletterProcedure,
  previews: previewsRouter,
  editor: createTRPCRouter({ create: editorCreateBlogProcedure, update: editorUpdateBlogProcedure }),
  authorChoices: authorChoicesProcedure,
  review: reviewRouter,
  revisions: createTRPCRouter({ list: listRevisionsProcedure, get: getRevisionProcedure, restore: restoreRevisionProcedure }),
});
