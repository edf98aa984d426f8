import { updateBlog } from "~/server/blogs/update-blog";
import { sessionProcedure } from "../../trpc";
import { ownerUpdateBlogInput } from "./owner-schemas";

/**
 * Dashboard: changes any of the owner's blog fields, isPublic and allowApiAccess included. The
 * API reads the blog afresh on every request, so a switch takes effect on its next request.
 */
export const ownerUpdateBlogProcedure = sessionProcedure
  .input(ownerUpdateBlogInput)
  .mutation(({ ctx, input }) => {
    const { id, ...changes } = input;
    return updateBlog(ctx.db, ctx.user.id, id, changes, "owner");
  });
