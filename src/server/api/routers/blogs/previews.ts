import "server-only";
import { z } from "zod";
import { blogScope } from "~/server/blogs/blog-scope";
import { assertMayChangePost } from "~/server/blogs/blog-access";
import { createPreviewLink, listPreviewLinks, revokePreviewLink } from "~/server/blogs/preview-links";
import { DEFAULT_PREVIEW_LIFETIME, PREVIEW_LIFETIME_NAMES } from "~/shared/preview-lifetimes";
import { createTRPCRouter, ownerProcedure } from "../../trpc";
import { blogIdParams } from "./schemas";

/**
 * Preview links: the owner's alone (no permission in their meta, so no key reaches them, and no
 * OpenAPI operation): a key holder shares drafts by reading them, not by minting public links.
 */
export const previewsRouter = createTRPCRouter({
  create: ownerProcedure.meta({ minRole: "contributor" })
    .input(z.object({ ...blogIdParams, lifetime: z.enum(PREVIEW_LIFETIME_NAMES).default(DEFAULT_PREVIEW_LIFETIME) }))
    .mutation(async ({ ctx, input }) => {
      const scope = blogScope(ctx.caller);
      await assertMayChangePost(ctx.db, ctx.caller, scope.accountId, input.blogId);
      return createPreviewLink(ctx.db, scope, input.blogId, input.lifetime);
    }),
  list: ownerProcedure.meta({ minRole: "contributor" })
    .input(z.object(blogIdParams))
    .query(({ ctx, input }) => listPreviewLinks(ctx.db, blogScope(ctx.caller), input.blogId)),
  revoke: ownerProcedure.meta({ minRole: "contributor" })
    .input(z.object({ ...blogIdParams, previewId: z.string().min(1) }))
    .mutation(async ({ ctx, input }) => {
      const scope = blogScope(ctx.caller);
      await assertMayChangePost(ctx.db, ctx.caller, scope.accountId, input.blogId);
      return revokePreviewLink(ctx.db, scope, input.blogId, input.previewId);
    }),
});
