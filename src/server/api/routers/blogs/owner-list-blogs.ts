import { listOwnerBlogs } from "~/server/blogs/list-owner-blogs";
import { sessionProcedure } from "../../trpc";
import { ownerListBlogsInput } from "./owner-schemas";

/** Dashboard: all of the owner's blogs, searched by title or slug, one page at a time. */
export const ownerListBlogsProcedure = sessionProcedure
  .input(ownerListBlogsInput)
  .query(({ ctx, input }) => listOwnerBlogs(ctx.db, { accountId: ctx.user.id, ...input }));
