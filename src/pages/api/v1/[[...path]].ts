/**
 * The public REST API, /api/v1 and everything below it, as Next.js serves it: on Vercel and under
 * `next dev` (the production server, src/server/http/server.ts, hands /api/v1 to the same handler
 * before Next). A Pages Router API route, not an App Router route handler: it gets Node's own
 * request and response, where a route handler converts both to and from web streams on every
 * request (an empty route handler answers about a third as many requests a second).
 */
import type { NextApiRequest, NextApiResponse } from "next";
import { waitUntil } from "@vercel/functions";
import { handleApiRequest } from "@blogmgr/server";

export const config = {
  // The handler reads the body itself (JSON only, at most 1 MiB) and always answers.
  api: { bodyParser: false, externalResolver: true, responseLimit: false },
};

export default async function handler(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  const { afterResponse } = await handleApiRequest(req, res);
  // On Vercel, keeps the function alive until "Last Used" and usage are written.
  waitUntil(afterResponse);
}
