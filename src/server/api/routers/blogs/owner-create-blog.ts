import { createBlog } from "~/server/blogs/create-blog";
import { sessionProcedure } from "../../trpc";
import { ownerCreateBlogInput } from "./owner-schemas";

/** Dashboard: creates a blog; the owner chooses whether the API may see it (default yes). */
export const ownerCreateBlogProcedure = sessionProcedure
  .input(ownerCreateBlogInput)
  .mutation(({ ctx, input }) => {
    const { allowApiAccess, ...fields } = input;
    return createBlog(ctx.db, ctx.user.id, fields, { allowApiAccess });
  });
