import { deleteBlog } from "~/server/blogs/delete-blog";
import { sessionProcedure } from "../../trpc";
import { ownerBlogIdInput } from "./owner-schemas";

/** Dashboard: deletes one of the owner's blogs for good. */
export const ownerDeleteBlogProcedure = sessionProcedure
  .input(ownerBlogIdInput)
  .mutation(({ ctx, input }) => deleteBlog(ctx.db, ctx.user.id, input.id, "owner"));
