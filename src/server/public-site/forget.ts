import "server-only";
import { dangerouslyDeleteByTag } from "@vercel/functions";
import { publicPageCache } from "./cache";

/**
 * Cache tags of the public answers on Vercel's CDN (set by src/pages/api/public.ts): one per
 * account, and one for the site-wide answers (the sitemap index, robots.txt).
 */
export const siteWideCacheTag = "public-site";
export const accountCacheTag = (ownerId: string) => `public-site-${ownerId}`;

/**
 * After a write by this process to an account's public content (the procedures declaring
 * `changesPublicPages`, src/server/api/trpc.ts; the publishing job): its public answers are made
 * again on the next request here at once, rather than when PostgreSQL's notice arrives
 * (./change-listener.ts), and on Vercel deleted from the CDN, whose next request then comes to
 * the app (an invalidation would still serve it stale once).
 */
export async function forgetPublicPages(ownerId: string): Promise<void> {
  publicPageCache.changed(ownerId);
  await dangerouslyDeleteByTag([accountCacheTag(ownerId), siteWideCacheTag]);
}
