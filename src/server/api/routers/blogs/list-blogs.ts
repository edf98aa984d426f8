import { listBlogs } from "~/server/blogs/list-blogs";
import { ApiError } from "../../errors";
import { apiKeyProcedure } from "../../trpc";
import { listBlogsInput, listBlogsOutput } from "./schemas";

export const listBlogsProcedure = apiKeyProcedure("read:blogs")
  .meta({
    openapi: {
      method: "GET",
      path: "/blogs",
      tags: ["Blogs"],
      summary: "List blogs",
      description:
        "The caller's blogs that have API access enabled, newest first. Blogs without API access are never returned.",
    },
    errors: ["INVALID_PARAMETER"],
  })
  .input(listBlogsInput)
  .output(listBlogsOutput)
  .query(async ({ ctx, input }) => {
    if (input.from && input.to && input.from > input.to) {
      throw new ApiError("INVALID_PARAMETER", "Invalid parameter: from", "from must not be after to");
    }
    const data = await listBlogs(ctx.db, {
      accountId: ctx.apiKey.accountId,
      page: input.page,
      limit: input.limit,
      isPublic: input.public,
      from: input.from,
      to: input.to,
    });
    return { success: true as const, data };
  });
