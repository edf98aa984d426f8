import "server-only";
import { z } from "zod";
import { callerAccount } from "~/server/accounts/caller";
import { getDomainRecord, verifyDomain } from "~/server/publication/domains";
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
  update: ownerProcedure
    .meta({ changesPublicPages: true })
    .input(publicationUpdateSchema)
    .mutation(({ ctx, input }) => updatePublicationAndHosting(ctx.db, callerAccount(ctx.caller).id, input)),
  /** The TXT record that verifies the custom domain (docs/public-blog.md, Custom domains), null without a domain. */
  domainRecord: ownerProcedure.query(({ ctx }) => getDomainRecord(ctx.db, callerAccount(ctx.caller).id)),
  /** Checks the record now; verified, the publication is served at its domain within seconds. */
  verifyDomain: ownerProcedure
    .meta({ changesPublicPages: true })
    .mutation(({ ctx }) => verifyDomain(ctx.db, callerAccount(ctx.caller).id)),
});
