import "server-only";
import { Resolver } from "node:dns/promises";
import { LRUCache } from "lru-cache";
import { env } from "~/env";
import { getSqlPool, type Db, type SqlPool } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import { configuredOrigin } from "~/server/http/public-origin";
import { canonicalDomain } from "~/shared/publication";
import { domainRecordName } from "~/shared/publication-domain";

/**
 * Custom domains (docs/public-blog.md, Custom domains): a publication's domain is verified when
 * the TXT record `_blogmgr.<domain>` holds its token, and once verified the public site answers
 * requests whose Host is that domain. Nothing here knows HTTP.
 */

/** Longest a verification waits for DNS: the owner is waiting for the answer. */
const DNS_TIMEOUT_MS = 3_000;

/** The resolver verifications ask: DNS_SERVERS', else the system's. */
function dnsResolver(): Resolver {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 1 });
  if (env.DNS_SERVERS) resolver.setServers(env.DNS_SERVERS);
  return resolver;
}

/** The TXT strings at `name` (each record's chunks joined, RFC 7208 §3.3); none when the name or the record does not exist. */
async function txtValues(name: string): Promise<string[]> {
  try {
    return (await dnsResolver().resolveTxt(name)).map((chunks) => chunks.join(""));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTFOUND" || code === "ENODATA") return [];
    throw new DomainError("PRECONDITION_FAILED", "DNS unreachable", `the DNS servers did not answer for ${name} (${code ?? "error"}); try again in a minute`, "domain");
  }
}

/** The TXT record that verifies the owner's domain, as the dashboard shows it; null without a domain. */
export async function getDomainRecord(db: Db, accountId: string): Promise<{ domain: string; name: string; value: string; verified: boolean } | null> {
  const publication = await db.publication.findUnique({ where: { userId: accountId }, select: { domain: true, domainToken: true, domainVerifiedAt: true } });
  if (!publication?.domain || !publication.domainToken) return null;
  return { domain: publication.domain, name: domainRecordName(publication.domain), value: publication.domainToken, verified: publication.domainVerifiedAt !== null };
}

/**
 * Checks the owner's domain's TXT record and marks the domain verified when it holds the token
 * (already verified: nothing to do). Refused with the reason otherwise: no domain set, no record,
 * a record holding other values, DNS not answering.
 */
export async function verifyDomain(db: Db, accountId: string): Promise<{ domain: string; verifiedAt: Date }> {
  const publication = await db.publication.findUnique({ where: { userId: accountId }, select: { domain: true, domainToken: true, domainVerifiedAt: true } });
  if (!publication?.domain || !publication.domainToken) throw new DomainError("PRECONDITION_FAILED", "No domain set", "set the publication's domain first", "domain");
  const { domain, domainToken } = publication;
  if (publication.domainVerifiedAt) return { domain, verifiedAt: publication.domainVerifiedAt };
  const name = domainRecordName(domain);
  const values = await txtValues(name);
  if (values.length === 0) throw new DomainError("PRECONDITION_FAILED", "DNS record not found", `no TXT record at ${name} yet (DNS changes can take a while to show)`, "domain");
  if (!values.includes(domainToken)) throw new DomainError("PRECONDITION_FAILED", "DNS record does not match", `the TXT record at ${name} holds ${values.map((value) => JSON.stringify(value)).join(", ")}, not ${domainToken}`, "domain");
  return markDomainVerified(db, accountId, domain);
}

/**
 * Marks `domain` verified when it is still the owner's publication's domain (the operator's CLI
 * does without DNS: README, Operator CLI); refused otherwise, so a verification never lands on a
 * domain changed meanwhile.
 */
export async function markDomainVerified(db: Db, accountId: string, domain: string): Promise<{ domain: string; verifiedAt: Date }> {
  const verifiedAt = new Date();
  const { count } = await db.publication.updateMany({ where: { userId: accountId, domain, domainVerifiedAt: null }, data: { domainVerifiedAt: verifiedAt } });
  if (count === 1) {
    // Served at once by this process; the others' lookups expire within 10 s (domainCache).
    domainCache.delete(domain);
    return { domain, verifiedAt };
  }
  const current = await db.publication.findUnique({ where: { userId: accountId }, select: { domain: true, domainVerifiedAt: true } });
  if (current?.domain === domain && current.domainVerifiedAt) return { domain, verifiedAt: current.domainVerifiedAt };
  throw new DomainError("PRECONDITION_FAILED", `Domain mismatch: the publication's domain is ${current?.domain ?? "not set"}`, `the publication's domain is ${current?.domain ?? "not set"}, not ${domain}`, "domain");
}

/** The publication a verified custom domain serves. */
export interface DomainPublication {
  ownerId: string;
  handle: string;
  domain: string;
}

/**
 * Host names that are the app's own and never a publication's: the configured origin's, Vercel's
 * production one, and anything under vercel.app or localhost (where no one can verify a domain).
 */
const APP_HOSTS = new Set(
  [configuredOrigin && new URL(configuredOrigin).hostname, env.VERCEL_PROJECT_PRODUCTION_URL?.toLowerCase()].filter((host): host is string => Boolean(host)),
);
const isAppHost = (host: string) => APP_HOSTS.has(host) || host.endsWith(".vercel.app") || host.endsWith(".localhost");

/**
 * The custom domain a request's Host header may name (lowercased, its port and trailing dot
 * dropped), or null when it can be none: missing, an IP address or a single label such as
 * localhost, not a host name, or one of the app's own (APP_HOSTS). A plain function of the
 * header, no lookup: the app's own requests never wait for one.
 */
export function customDomainOf(hostHeader: string | null | undefined): string | null {
  if (!hostHeader || hostHeader.startsWith("[")) return null;
  const host = canonicalDomain(hostHeader.replace(/:\d*$/, ""));
  return host === null || isAppHost(host) ? null : host;
}

/** Lookups kept 10 s (a verification or a change shows within that), found or not, for at most 10,000 hosts. */
const domainCache = new LRUCache<string, { publication: DomainPublication | null }, SqlPool>({
  max: 10_000,
  ttl: 10_000,
  fetchMethod: async (domain, _stale, { context: pool }) => {
    const { rows } = await pool.query<DomainPublication>(
      `SELECT p."userId" AS "ownerId", a."handle", p."domain" FROM "publication" AS p JOIN "organization" AS a ON a."id" = p."userId"
       WHERE p."domain" = $1 AND p."domainVerifiedAt" IS NOT NULL`,
      [domain],
    );
    return { publication: rows[0] ?? null };
  },
});

/**
 * The publication served at `host` (a request's Host header), when it is a verified custom
 * domain; null for the app's own hosts (without a lookup) and for any other. Runs for every
 * request with a foreign Host: lookups are cached (domainCache), concurrent ones made once.
 */
export async function findPublicationByDomain(pool: SqlPool, host: string | null | undefined): Promise<DomainPublication | null> {
  const domain = customDomainOf(host);
  if (domain === null) return null;
  return (await domainCache.fetch(domain, { context: pool }))?.publication ?? null;
}

/**
 * Whether a request with this Host header is for a publication's verified domain: false at once,
 * with no lookup, for the app's own hosts (Next's proxy and the production server ask on every
 * request); a lookup that fails counts as no (the public site's handler answers 503 then).
 */
export function isVerifiedDomainHost(host: string | null | undefined): false | Promise<boolean> {
  if (customDomainOf(host) === null) return false;
  return findPublicationByDomain(getSqlPool(), host).then(
    (publication) => publication !== null,
    () => false,
  );
}
