import "server-only";
import type { z } from "zod";
import { createBlog } from "~/server/blogs/create-blog";
import { changeSourceOf, type ChangeSource } from "~/server/blogs/change-source";
import { withinBlogQuota } from "~/server/quotas/blog-quota";
import { QUOTAS } from "~/server/quotas/quotas";
import { runIdempotently } from "../../idempotency";
import { callerAccount } from "~/server/accounts/caller";
import { ownerProcedure, procedure, type ProcedureContext } from "../../trpc";
import { blogScope } from "~/server/blogs/blog-scope";
import { assertMayCreatePost } from "~/server/blogs/blog-access";
import { assertReadOnlyFieldsUnchanged, splitBlogInput } from "./read-only-fields";
import { blogOutput, createBlogInput, editSessionInput } from "./schemas";

const quotas = Object.entries(QUOTAS.blogsPerAccount).map(([plan, quota]) => `${plan} ${quota.toLocaleString("en-US")}`);

const BLOG_QUOTA_DESCRIPTION =
  `An account holds at most as many blogs as its plan allows (${quotas.join(", ")}; blogs hidden from the API ` +
  "count too); at that quota, " +
  'a create is a 409 RESOURCE_CONFLICT "Blog quota reached" whose details name the quota, until blogs are deleted ' +
  "or the plan is raised.";

export const createBlogProcedure = procedure
  .meta({
    permission: "write:blogs",
    minRole: "contributor",
    changesPublicPages: true,
    openapi: {
      method: "POST",
      path: "/blogs",
      tags: ["Blogs"],
      summary: "Create a blog",
      description:
        "Creates a blog with API access enabled (isPublic defaults to false). Without blogSlug, one is derived from " +
        "the title (-2, -3, … when taken); an explicit slug already used by the account is a 409. Send an " +
        "Idempotency-Key header to make retries safe: the same key and body within 24 hours replays the first " +
        "response with Idempotent-Replayed: true; the same key with another body is a 409. " +
        BLOG_QUOTA_DESCRIPTION,
      successDescription: "The created blog",
    },
    successStatus: 201,
    idempotent: true,
    errors: ["INVALID_PARAMETER", "MISSING_REQUIRED_FIELD", "RESOURCE_CONFLICT", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"],
  })
  .input(createBlogInput)
  .output(blogOutput)
  .mutation(({ ctx, input }) => createAs(ctx, input, changeSourceOf(ctx.caller)));

/** The create both doors and the dashboard's editor share, recorded as made by `source`. */
function createAs(ctx: ProcedureContext, input: z.infer<typeof createBlogInput>, source: ChangeSource) {
  const account = callerAccount(ctx.caller);
  assertMayCreatePost(ctx.caller, input);
  return runIdempotently(ctx, account.id, input, 201, (db) => {
    const scope = blogScope(ctx.caller);
    const { changes, readOnly } = splitBlogInput(scope, input);
    assertReadOnlyFieldsUnchanged(readOnly, null);
    const { allowApiAccess, ...fields } = changes;
    return withinBlogQuota(db, account, async (tx) => {
      const blog = await createBlog(tx, scope, fields, { allowApiAccess, source });
      return { success: true as const, data: { blog } };
    });
  });
}

/** The dashboard's editor creates its draft through this one (no OpenAPI operation), naming its editing session. */
export const editorCreateBlogProcedure = ownerProcedure.meta({ minRole: "contributor" })
  .meta({ changesPublicPages: true })
  .input(createBlogInput.extend(editSessionInput))
  .output(blogOutput)
  .mutation(({ ctx, input: { editSession, ...input } }) => createAs(ctx, input, { by: "owner", editSession }));
