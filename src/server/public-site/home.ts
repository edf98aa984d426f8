import "server-only";

/**
 * A publication's home (docs/public-blog.md, docs/public-blog.md Custom domains): the absolute
 * address all its pages are under, without a trailing slash: `{origin}/{handle}` on the app's
 * host, `https://{domain}` on its verified custom domain. Pages, feeds and sitemaps make every
 * link of the publication from it, so one page serves both hosts.
 */
export const publicationHome = (origin: string, handle: string, onDomain: boolean) => (onDomain ? origin : `${origin}/${handle}`);

/** The path of an address under `home` (`path` "" or a query alone: the home itself, "/" on a domain), for links within its pages. */
export function pathUnderHome(home: string, path = ""): string {
  const joined = `${new URL(home).pathname.replace(/\/$/, "")}${path}`;
  return joined.startsWith("/") ? joined : `/${joined}`;
}

/** The absolute address of the same: canonical links, feeds, sitemaps. */
export const urlUnderHome = (home: string, path = "") => new URL(home).origin + pathUnderHome(home, path);

/** An author's page under `home` (docs/public-blog.md, Authors): their handle is its slug. */
export const authorPageHref = (home: string, handle: string) => `${home}/authors/${handle}`;
