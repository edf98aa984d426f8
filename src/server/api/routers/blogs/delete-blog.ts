import "server-only";
import { z } from "zod";
import { deleteBlog } from "~/server/blogs/delete-blog";
import { blogScope } from "~/server/blogs/blog-scope";
import { assertMayDeletePost } from "~/server/blogs/blog-access";
import { procedure } from "../../trpc";
import { ifMatchPrecondition } from "./blog-entity-tag";
import { blogIdParams, deleteBlogOutput } from "./schemas";

export const deleteBlogProcedure = procedure
  .meta({
    permission: "delete:blogs",
    minRole: "contributor",
    changesPublicPages: true,
    openapi: { method: "DELETE", path: "/blogs/{blogId}", tags: ["Blogs"], summary: "Delete a blog", description: "With If-Match, only if the blog's ETag is still the one given (else 412 PRECONDITION_FAILED)." },
    errors: ["RESOURCE_NOT_FOUND", "PRECONDITION_FAILED"],
  })
  .input(z.object(blogIdParams))
  .output(deleteBlogOutput)
  .mutation(async ({ ctx, input }) => {
    const scope = blogScope(ctx.caller);
    await assertMayDeletePost(ctx.db, ctx.caller, scope.accountId, input.blogId);
    const data = await deleteBlog(ctx.db, scope, input.blogId, ifMatchPrecondition(ctx.headers));
    return { success: true as const, data };
  });
