import { z } from "zod";
import { deleteBlog } from "~/server/blogs/delete-blog";
import { apiKeyProcedure } from "../../trpc";
import { blogIdParams, deleteBlogOutput } from "./schemas";

export const deleteBlogProcedure = apiKeyProcedure("delete:blogs")
  .meta({
    openapi: { method: "DELETE", path: "/blogs/{blogId}", tags: ["Blogs"], summary: "Delete a blog" },
    errors: ["RESOURCE_NOT_FOUND"],
  })
  .input(z.object(blogIdParams))
  .output(deleteBlogOutput)
  .mutation(async ({ ctx, input }) => {
    const data = await deleteBlog(ctx.db, ctx.apiKey.accountId, input.blogId);
    return { success: true as const, data };
  });
