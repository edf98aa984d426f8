/**
 * The public site (docs/public-blog.md) as Next serves it, on Vercel and under `next dev`: every
 * address no other route claims is rewritten here (next.config.mjs, fallback), with its own path
 * and query in `x-public-url`, which the proxy (src/proxy.ts) sets on every request and no client
 * can. A Pages Router API route: React renders the pages to static HTML here, which App Router
 * handlers, run under React's server condition, cannot do. The production server answers the
 * same addresses before Next (src/server/http/server.ts), with the same handler.
 */
import type { NextApiRequest, NextApiResponse } from "next";
import { addCacheTag, waitUntil } from "@vercel/functions";
import { accountCacheTag, siteWideCacheTag, handlePublicRequest, PUBLIC_URL_HEADER } from "@blogmgr/server";

export const config = { api: { bodyParser: false, externalResolver: true, responseLimit: false } };

export default async function handler(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  const url = req.headers[PUBLIC_URL_HEADER];
  await handlePublicRequest(req, res, {
    // Asked for by its own address (/api/public): no public address, a 404.
    url: typeof url === "string" ? url : "/api/public",
    unclaimed: true,
    onAnswer: (ownerId) => addCacheTag(ownerId ? accountCacheTag(ownerId) : siteWideCacheTag),
    // A reader's view is written in a batch after the answer: the function lives until it is.
    waitUntil,
  });
}
