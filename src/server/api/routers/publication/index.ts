import "server-only";
import { z } from "zod";
import { callerAccount } from "~/server/accounts/caller";
import { requestOrigin } from "~/server/http/public-origin";
import { getDomainRecord, verifyDomain } from "~/server/publication/domains";
import { renderPublicationPreview } from "~/server/publication/preview";
import { getPublication } from "~/server/publication/publication";
import { updatePublicationAndHosting } from "~/server/publication/vercel-domains";
import { publicationSchema, publicationUpdateSchema } from "~/shared/publication";
import { createTRPCRouter, ownerProcedure, procedure } from "../../trpc";
import { successEnvelope } from "../blogs/schemas";

/**
 * The account's publication (docs/publication.md): keys with read:blogs read it at
 * /api/v1/publication; only the owner changes it, in the dashboard (like keys and webhooks).
 */
export const publicationRouter = createTRPCRouter({
  get: procedure
    .meta({
      permission: "read:blogs",
      minRole: "contributor",
      openapi: {
        method: "GET",
        path: "/publication",
        tags: ["Publication"],
        summary: "Get the publication",
        description: "How the account's public pages present it: title, description, logo, navigation, footer, language, time zone, custom domain.",
      },
    })
    .input(z.object({}))
    .output(successEnvelope(z.object({ publication: publicationSchema })))
    .query(async ({ ctx }) => ({ success: true as const, data: { publication: await getPublication(ctx.db, callerAccount(ctx.caller).id) } })),
  update: ownerProcedure.meta({ minRole: "administrator" })
    .meta({ changesPublicPages: true })
    .input(publicationUpdateSchema)
    .mutation(({ ctx, input }) => updatePublicationAndHosting(ctx.db, callerAccount(ctx.caller).id, input)),
  /**
   * The home page's HTML with unsaved settings, for the dashboard's live preview: a query, so
   * typing spends none of the owner's budget of changes. The domain changes nothing on the page.
   */
  preview: ownerProcedure.meta({ minRole: "administrator" })
    .input(publicationUpdateSchema.omit({ domain: true }))
    .query(async ({ ctx, input }) => ({ html: await renderPublicationPreview(ctx.db, callerAccount(ctx.caller).id, requestOrigin(ctx.headers), input) })),
  /** The TXT record that verifies the custom domain (docs/public-blog.md, Custom domains), null without a domain. */
  domainRecord: ownerProcedure.meta({ minRole: "administrator" }).query(({ ctx }) => getDomainRecord(ctx.db, callerAccount(ctx.caller).id)),
  /** Checks the record now; verified, the publication is served at its domain within seconds. */
  verifyDomain: ownerProcedure.meta({ minRole: "administrator" })
    .meta({ changesPublicPages: true })
    .mutation(({ ctx }) => verifyDomain(ctx.db, callerAccount(ctx.caller).id)),
});
