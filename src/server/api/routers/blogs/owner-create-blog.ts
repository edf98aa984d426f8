import { createBlog } from "~/server/blogs/create-blog";
import { withinBlogQuota } from "~/server/quotas/blog-quota";
import { sessionProcedure } from "../../trpc";
import { ownerCreateBlogInput } from "./owner-schemas";

/**
 * Dashboard: creates a blog within the plan's blog quota; the owner chooses whether the API may
 * see it (default yes).
 */
export const ownerCreateBlogProcedure = sessionProcedure
  .input(ownerCreateBlogInput)
  .mutation(({ ctx, input }) => {
    const { allowApiAccess, ...fields } = input;
    return withinBlogQuota(ctx.db, ctx.user, () => createBlog(ctx.db, ctx.user.id, fields, { allowApiAccess }));
  });
