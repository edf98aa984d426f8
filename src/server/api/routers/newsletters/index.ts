import "server-only";
import { z } from "zod";
import { callerAccount } from "~/server/accounts/caller";
import { blogScope } from "~/server/blogs/blog-scope";
import { findBlog } from "~/server/blogs/find-blog";
import { countActiveSubscribers } from "~/server/newsletters/audience";
import { sendNewsletterTest } from "~/server/newsletters/test-email";
import { createTRPCRouter, ownerProcedure } from "../../trpc";

/** The editor's publish panel (docs/newsletters.md, Emailing a post): the owner's only, no REST operation. */
export const newslettersRouter = createTRPCRouter({
  /** How many subscribers a post emailed now would go to. */
  audience: ownerProcedure.meta({ minRole: "contributor" }).query(async ({ ctx }) => ({ active: await countActiveSubscribers(ctx.db, callerAccount(ctx.caller).id) })),
  /** One copy of the post's email to the owner; answers the address it went to. */
  sendTest: ownerProcedure.meta({ minRole: "author" }).input(z.object({ blogId: z.string().min(1) })).mutation(async ({ ctx, input }) => {
    const blog = await findBlog(ctx.db, blogScope(ctx.caller), { id: input.blogId });
    return sendNewsletterTest(ctx.db, { userId: callerAccount(ctx.caller).id, blogId: blog.id });
  }),
});
