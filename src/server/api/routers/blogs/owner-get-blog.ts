import { findBlog } from "~/server/blogs/find-blog";
import { sessionProcedure } from "../../trpc";
import { ownerBlogIdInput } from "./owner-schemas";

/** Dashboard: one of the owner's blogs, whatever its flags. */
export const ownerGetBlogProcedure = sessionProcedure
  .input(ownerBlogIdInput)
  .query(({ ctx, input }) => findBlog(ctx.db, ctx.user.id, { id: input.id }, "owner"));
