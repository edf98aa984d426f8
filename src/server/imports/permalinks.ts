import "server-only";

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
