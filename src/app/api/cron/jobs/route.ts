// Vercel Cron (vercel.json, every minute): runs the webhook jobs that are due, where no process
// keeps a worker running (docs/webhooks.md). Vercel calls it with `Authorization: Bearer $CRON_SECRET`.
import { timingSafeEqual } from "node:crypto";
import { env, ApiError, errorEnvelope, sessionDatabaseUrl, runDueJobs } from "@blogmgr/server";

export const dynamic = "force-dynamic";
/** Seconds: deliveries time out after 10 s each, several run at once. */
export const maxDuration = 60;

function authorized(header: string | null): boolean {
  if (!env.CRON_SECRET || !header) return false;
  const given = Buffer.from(header);
  const expected = Buffer.from(`Bearer ${env.CRON_SECRET}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function GET(request: Request): Promise<Response> {
  if (!authorized(request.headers.get("authorization"))) {
    return Response.json(errorEnvelope(new ApiError("INVALID_API_KEY", "Unauthorized", "Send Authorization: Bearer $CRON_SECRET")), { status: 401 });
  }
  await runDueJobs(sessionDatabaseUrl()!);
  return Response.json({ success: true });
}
