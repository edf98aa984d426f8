import "server-only";
/**
 * Which answers of the public site are a reader's view, and where the reader came from
 * (docs/public-blog.md, Views). No cookie and no script: the request alone decides.
 */
import { isbot } from "isbot";
import { LRUCache } from "lru-cache";

/** The longest host kept (a DNS name's limit); a longer Referer host is no host (counted as none). */
const MAX_HOST_LENGTH = 253;

/**
 * isbot's verdict per User-Agent: its pattern costs microseconds a test, and readers' browsers send
 * few distinct strings, so a page served from the cache stays cheap when it is counted.
 */
const botVerdicts = new LRUCache<string, boolean>({ max: 1_000 });

function isBotAgent(userAgent: string): boolean {
  let verdict = botVerdicts.get(userAgent);
  if (verdict === undefined) botVerdicts.set(userAgent, (verdict = isbot(userAgent)));
  return verdict;
}

/**
 * A GET answered 200 or 304 (a cache hit or a revalidation counts, a HEAD never) to a user agent
 * that names itself and is no bot by isbot's list. Without a User-Agent, a request is a script's,
 * not a reader's.
 */
export function isReaderView(method: string, status: number, userAgent: string | undefined): boolean {
  return method === "GET" && (status === 200 || status === 304) && userAgent !== undefined && userAgent !== "" && !isBotAgent(userAgent);
}

/**
 * The host of the Referer, lower-cased with its port; null for none: no header, one no URL parser
 * reads, one without a host, or the site's own (the host of `siteOrigin`, whatever the scheme: a
 * reader moving between its pages came from it, not from elsewhere).
 */
export function referrerHost(referer: string | undefined, siteOrigin: string): string | null {
  if (!referer || !URL.canParse(referer)) return null;
  const { host } = new URL(referer);
  if (host === "" || host.length > MAX_HOST_LENGTH || host === new URL(siteOrigin).host) return null;
  return host;
}
