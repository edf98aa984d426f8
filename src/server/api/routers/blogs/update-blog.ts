import "server-only";
import type { z } from "zod";
import { blogScope } from "~/server/blogs/blog-scope";
import { assertMayChangePost } from "~/server/blogs/blog-access";
import { findBlog } from "~/server/blogs/find-blog";
import { updateBlog } from "~/server/blogs/update-blog";
import { changeSourceOf, type ChangeSource } from "~/server/blogs/change-source";
import { ApiError } from "../../errors";
import { ownerProcedure, procedure, type Meta, type ProcedureContext } from "../../trpc";
import { blogAnswer, ifMatchPrecondition } from "./blog-entity-tag";
import { assertReadOnlyFieldsUnchanged, splitBlogInput } from "./read-only-fields";
import { blogOutput, editSessionInput, updateBlogInput, WRITABLE_FIELDS } from "./schemas";

/** PUT and PATCH are the same partial update: only the fields sent change. */
function updateBlogProcedure(method: "PUT" | "PATCH") {
  const meta: Meta = {
    permission: "write:blogs",
    minRole: "contributor",
    changesPublicPages: true,
    openapi: {
      method,
      path: "/blogs/{blogId}",
      tags: ["Blogs"],
      summary: method === "PUT" ? "Update a blog" : "Update a blog (same as PUT)",
      description:
        "Partial update: only the fields sent change, and updatedAt advances. A change to the text fields or tags " +
        "records a revision. Read-only fields (id, status, createdAt, updatedAt, publishedAt, emailedAt, allowApiAccess) may be sent back unchanged; a different value is a 400. emailSubscribers may change only until the blog has been public or emailed (else 400). With If-Match, only if " +
        "the blog's ETag is still the one given (else 412 PRECONDITION_FAILED).",
    },
    errors: ["INVALID_PARAMETER", "RESOURCE_NOT_FOUND", "RESOURCE_CONFLICT", "PRECONDITION_FAILED", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"],
  };
  return procedure
    .meta(meta)
    .input(updateBlogInput)
    .output(blogOutput)
    .mutation(({ ctx, input }) => updateAs(ctx, input, changeSourceOf(ctx.caller)));
}

/** The update both doors and the dashboard's editor share, recorded as made by `source`. */
async function updateAs(ctx: ProcedureContext, input: z.infer<typeof updateBlogInput>, source: ChangeSource) {
  const scope = blogScope(ctx.caller);
  const { blogId, ...fields } = input;
  const { changes, readOnly } = splitBlogInput(scope, fields);
  // A changed read-only field is the more specific error, named even when nothing else is sent.
  if (Object.values(readOnly).some((value) => value !== undefined)) {
    assertReadOnlyFieldsUnchanged(readOnly, await findBlog(ctx.db, scope, { id: blogId }));
  }
  if (Object.values(changes).every((value) => value === undefined)) {
    throw new ApiError("INVALID_PARAMETER", "Nothing to update", `Send at least one of: ${WRITABLE_FIELDS.join(", ")}`);
  }
  await assertMayChangePost(ctx.db, ctx.caller, scope.accountId, blogId, changes);
  const precondition = ifMatchPrecondition(ctx.headers);
  return blogAnswer(await updateBlog(ctx.db, scope, blogId, changes, { precondition, source }));
}

export const putBlogProcedure = updateBlogProcedure("PUT");
export const patchBlogProcedure = updateBlogProcedure("PATCH");

/**
 * The dashboard's editor saves through this one (no OpenAPI operation): the update above, with the
 * page's editing session, so its saves fold into one revision (src/server/blogs/change-source.ts).
 */
export const editorUpdateBlogProcedure = ownerProcedure.meta({ minRole: "contributor" })
  .meta({ changesPublicPages: true })
  .input(updateBlogInput.extend(editSessionInput))
  .output(blogOutput)
  .mutation(({ ctx, input: { editSession, ...input } }) => updateAs(ctx, input, { by: "owner", editSession }));
