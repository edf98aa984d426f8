import "server-only";
import type { SqlPool } from "~/server/db";

/**
 * An old permalink's path as imported_permalink keeps it and as a request's path is looked up
 * (docs/migrating.md, How an import runs): percent-decoded once (then encoded the one way), no
 * query or fragment, no trailing slash, never empty ("/" is the home page, never a post's).
 * Null for a path that cannot be one.
 */
export function normalizePermalinkPath(path: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path.split(/[?#]/)[0]!);
  } catch {
    return null;
  }
  const segments = decoded.split("/").filter((segment) => segment !== "");
  if (segments.length === 0 || segments.some((segment) => segment === "." || segment === "..")) return null;
  return `/${segments.map(encodeURIComponent).join("/")}`;
}

/** The path of a post's old permalink below the old site's address (`oldUrl`): "/2019/05/hello" of https://old.example/blog/2019/05/hello/ under https://old.example/blog. */
export function oldPathBelow(oldUrl: string, oldPath: string): string | null {
  let path = oldPath;
  if (/^https?:\/\//i.test(oldPath)) {
    try {
      path = new URL(oldPath).pathname;
    } catch {
      return null;
    }
  }
  const base = new URL(oldUrl).pathname.replace(/\/+$/, "");
  if (base && (path === base || path.startsWith(`${base}/`))) path = path.slice(base.length);
  return normalizePermalinkPath(path);
}

/**
 * The public post an imported old permalink now is: under a handle (`/{handle}/{path}` on the
 * app's host) or a custom domain's owner (`/{path}`); null when there is none, or its blog is not
 * public (its 404 stands, as a moved blog's does: docs/public-blog.md, Moved blogs).
 */
export async function findImportedPermalink(
  sql: SqlPool,
  pathname: string,
  owner: { ownerId: string } | null,
): Promise<{ handle: string; blogSlug: string } | null> {
  let path = pathname;
  let handle: string | null = null;
  if (!owner) {
    const [, first = "", ...rest] = pathname.split("/");
    handle = first;
    path = `/${rest.join("/")}`;
  }
  const normalized = normalizePermalinkPath(path);
  if (!normalized || (!owner && !handle)) return null;
  const { rows } = await sql.query<{ handle: string; blogSlug: string }>(
    `SELECT a."handle", b."blogSlug" FROM "imported_permalink" AS p
       JOIN "organization" AS a ON a."id" = p."userId"
       JOIN "blog" AS b ON b."id" = p."blogId" AND b."isPublic"
     WHERE p."path" = $1 AND (a."id" = $2 OR ($2::text IS NULL AND a."handle" = $3))`,
    [normalized, owner?.ownerId ?? null, handle],
  );
  return rows[0] ?? null;
}
