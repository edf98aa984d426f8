import "server-only";
import { z } from "zod";
import { blogScope } from "~/server/blogs/blog-scope";
import { assertMayChangePost } from "~/server/blogs/blog-access";
import { findRevision, listRevisions, restoreRevision, REVISION_SOURCES } from "~/server/blogs/revisions";
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "~/server/common/pagination";
import { integerParam } from "../../query-params";
import { procedure } from "../../trpc";
import { blogAnswer, ifMatchPrecondition } from "./blog-entity-tag";
import { blogIdParams, blogOutput, paginationSchema, successEnvelope } from "./schemas";

const revisionIdParams = { ...blogIdParams, revisionId: z.string().min(1).meta({ description: "The revision's id" }) };

const revisionSummary = {
  id: z.string(),
  blogId: z.string(),
  createdAt: z.iso.datetime().meta({ description: "When the change was made, ISO 8601" }),
  changedBy: z.enum(REVISION_SOURCES).meta({
    description: "What made the change: the owner (dashboard), an API key, the CLI import, an import of another platform's export (docs/migrating.md), a restore, or a write to the database from outside the app",
  }),
  apiKeyName: z.string().nullable().meta({ description: "The API key's name when changedBy is api_key" }),
  changedFields: z.array(z.string()).meta({ description: "The fields that differ from the previous revision (all of them for the first)" }),
  title: z.string(),
};

const revisionSummarySchema = z.object(revisionSummary).meta({ id: "RevisionSummary" });
const revisionSchema = z
  .object({
    ...revisionSummary,
    description: z.string(),
    content: z.string(),
    seoTitle: z.string(),
    seoDescription: z.string(),
    tags: z.array(z.string()),
  })
  .meta({ id: "Revision" });

const PAGE_OF_REVISIONS = paginationSchema.omit({ nextCursor: true }).meta({ id: "PagePagination" });

export const listRevisionsProcedure = procedure
  .meta({
    permission: "read:blogs",
    minRole: "contributor",
    openapi: {
      method: "GET",
      path: "/blogs/{blogId}/revisions",
      tags: ["Revisions"],
      summary: "List a blog's revisions",
      description:
        "Every change to the title, description, content, SEO fields or tags stores a revision (the newest 100 are kept), " +
        "newest first. Items leave out the long text fields: get one revision for them.",
    },
    errors: ["INVALID_PARAMETER", "RESOURCE_NOT_FOUND"],
  })
  .input(
    z.object({
      ...blogIdParams,
      page: integerParam("page", { min: 1, default: DEFAULT_PAGE }).meta({ description: "Page number" }),
      limit: integerParam("limit", { min: 1, max: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }).meta({ description: "Items per page" }),
    }),
  )
  .output(successEnvelope(z.object({ revisions: z.array(revisionSummarySchema), pagination: PAGE_OF_REVISIONS })))
  .query(async ({ ctx, input }) => {
    const data = await listRevisions(ctx.db, ctx.sql, blogScope(ctx.caller), input.blogId, input);
    return { success: true as const, data };
  });

export const getRevisionProcedure = procedure
  .meta({
    permission: "read:blogs",
    minRole: "contributor",
    openapi: { method: "GET", path: "/blogs/{blogId}/revisions/{revisionId}", tags: ["Revisions"], summary: "Get a revision" },
    errors: ["RESOURCE_NOT_FOUND"],
  })
  .input(z.object(revisionIdParams))
  .output(successEnvelope(z.object({ revision: revisionSchema })))
  .query(async ({ ctx, input }) => {
    const revision = await findRevision(ctx.db, ctx.sql, blogScope(ctx.caller), input.blogId, input.revisionId);
    return { success: true as const, data: { revision } };
  });

export const restoreRevisionProcedure = procedure
  .meta({
    permission: "write:blogs",
    minRole: "contributor",
    changesPublicPages: true,
    openapi: {
      method: "POST",
      path: "/blogs/{blogId}/revisions/{revisionId}/restore",
      tags: ["Revisions"],
      summary: "Restore a revision",
      description:
        "Writes the revision's title, description, content, SEO fields and tags back to the blog as a new change, " +
        "recorded as a revision by restore. With If-Match, only if the blog's ETag is still the one given (else 412).",
      successDescription: "The blog, restored",
    },
    errors: ["RESOURCE_NOT_FOUND", "PRECONDITION_FAILED"],
  })
  .input(z.object(revisionIdParams))
  .output(blogOutput)
  .mutation(async ({ ctx, input }) => {
    const scope = blogScope(ctx.caller);
    await assertMayChangePost(ctx.db, ctx.caller, scope.accountId, input.blogId);
    return blogAnswer(await restoreRevision(ctx.db, ctx.sql, scope, input.blogId, input.revisionId, ifMatchPrecondition(ctx.headers)));
  });
