import "server-only";
import { PassThrough, Readable } from "node:stream";
import { getSessionUser, sessionMember } from "~/server/auth";
import { roleAtLeast } from "~/shared/roles";
import { getDb } from "~/server/db";
import { exportAccount } from "~/server/exports/export-account";
import { NO_STORE } from "~/server/http/security-headers";
import { log } from "~/server/runtime/log";
import { ApiError, errorEnvelope } from "../errors";

/**
 * The dashboard's "Download everything" (GET /dashboard/export, docs/migrating.md, Export): the
 * signed-in member's publication as a zip, streamed as it is made, named `{handle}-export-{date}.zip`.
 * Signed out: 401 in the API's envelope. A download cancelled stops the export at its next entry.
 */
export async function handleExportRequest(req: Request): Promise<Response> {
  const member = sessionMember(await getSessionUser(req.headers));
  if (!member) {
    const error = new ApiError("MISSING_API_KEY", "Sign in to continue", "Sign in to the dashboard to download your export");
    return Response.json(errorEnvelope(error), { status: error.httpStatus(), headers: NO_STORE });
  }
  // The whole publication, subscribers included: its administrators' and owner's (docs/teams.md).
  if (!roleAtLeast(member.publication.role, "administrator")) {
    const error = new ApiError("INSUFFICIENT_PERMISSIONS", "Only the publication's administrators may download its export");
    return Response.json(errorEnvelope(error), { status: error.httpStatus(), headers: NO_STORE });
  }
  const { publication } = member;
  const zip = new PassThrough();
  exportAccount(getDb(), publication.id, zip).catch((error: unknown) => {
    log.warn({ err: error, accountId: publication.id }, "export not finished");
  });
  const fileName = `${publication.handle}-export-${new Date().toISOString().slice(0, 10)}.zip`;
  return new Response(Readable.toWeb(zip) as ReadableStream<Uint8Array>, {
    headers: {
      ...NO_STORE,
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
