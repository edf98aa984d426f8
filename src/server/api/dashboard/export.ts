import "server-only";
import { PassThrough, Readable } from "node:stream";
import { getSessionUser } from "~/server/auth";
import { getDb } from "~/server/db";
import { exportAccount } from "~/server/exports/export-account";
import { NO_STORE } from "~/server/http/security-headers";
import { log } from "~/server/runtime/log";
import { ApiError, errorEnvelope } from "../errors";

/**
 * The dashboard's "Download everything" (GET /dashboard/export, docs/migrating.md, Export): the
 * signed-in owner's account as a zip, streamed as it is made, named `{handle}-export-{date}.zip`.
 * Signed out: 401 in the API's envelope. A download cancelled stops the export at its next entry.
 */
export async function handleExportRequest(req: Request): Promise<Response> {
  const user = await getSessionUser(req.headers);
  if (!user) {
    const error = new ApiError("MISSING_API_KEY", "Sign in to continue", "Sign in to the dashboard to download your export");
    return Response.json(errorEnvelope(error), { status: error.httpStatus(), headers: NO_STORE });
  }
  const zip = new PassThrough();
  exportAccount(getDb(), user.id, zip).catch((error: unknown) => {
    log.warn({ err: error, accountId: user.id }, "export not finished");
  });
  const fileName = `${user.handle}-export-${new Date().toISOString().slice(0, 10)}.zip`;
  return new Response(Readable.toWeb(zip) as ReadableStream<Uint8Array>, {
    headers: {
      ...NO_STORE,
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
