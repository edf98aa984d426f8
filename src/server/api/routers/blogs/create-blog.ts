import { createBlog } from "~/server/blogs/create-blog";
import { runIdempotently } from "../../idempotency";
import { apiKeyProcedure } from "../../trpc";
import { assertReadOnlyFieldsUnchanged } from "./read-only-fields";
import { blogOutput, createBlogInput } from "./schemas";

export const createBlogProcedure = apiKeyProcedure("write:blogs")
  .meta({
    openapi: {
      method: "POST",
      path: "/blogs",
      tags: ["Blogs"],
      summary: "Create a blog",
      description:
        "Creates a blog with API access enabled (isPublic defaults to false). Without blogSlug, one is derived from " +
        "the title (-2, -3, … when taken); an explicit slug already used by the account is a 409. Send an " +
        "Idempotency-Key header to make retries safe: the same key and body within 24 hours replays the first " +
        "response with Idempotent-Replayed: true; the same key with another body is a 409.",
      successDescription: "The created blog",
    },
    successStatus: 201,
    errors: ["INVALID_PARAMETER", "MISSING_REQUIRED_FIELD", "RESOURCE_CONFLICT", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"],
  })
  .input(createBlogInput)
  .output(blogOutput)
  .mutation(({ ctx, input }) =>
    runIdempotently(ctx, ctx.apiKey.accountId, input, 201, async () => {
      const { id, createdAt, updatedAt, allowApiAccess, ...fields } = input;
      assertReadOnlyFieldsUnchanged({ id, createdAt, updatedAt, allowApiAccess }, null);
      const blog = await createBlog(ctx.db, ctx.apiKey.accountId, fields);
      return { success: true as const, data: { blog } };
    }),
  );
