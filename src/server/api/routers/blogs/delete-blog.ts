import { z } from "zod";
import { deleteBlog } from "~/server/blogs/delete-blog";
import { blogScope } from "~/server/blogs/blog-scope";
import { procedure } from "../../trpc";
import { blogIdParams, deleteBlogOutput } from "./schemas";

export const deleteBlogProcedure = procedure
  .meta({
    permission: "delete:blogs",
    openapi: { method: "DELETE", path: "/blogs/{blogId}", tags: ["Blogs"], summary: "Delete a blog" },
    errors: ["RESOURCE_NOT_FOUND"],
  })
  .input(z.object(blogIdParams))
  .output(deleteBlogOutput)
  .mutation(async ({ ctx, input }) => {
    const data = await deleteBlog(ctx.db, blogScope(ctx.caller), input.blogId);
    return { success: true as const, data };
  });
