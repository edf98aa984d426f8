/** Handles are the first segment of public blog URLs (/{handle}/{blogSlug}). */
export const HANDLE_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const HANDLE_MIN_LENGTH = 3;
export const HANDLE_MAX_LENGTH = 30;

/**
 * Handles that would collide with the app's own top-level routes (/{handle} is a public page), or
 * that would pass for the service itself.
 */
export const RESERVED_HANDLES: ReadonlySet<string> = new Set([
  "api", "app", "dashboard", "sign-in", "sign-up", "sign-out", "signin", "signup", "signout", "login", "logout",
  "forgot-password", "reset-password", "invitations", "invitation",
  "register", "settings", "account", "accounts", "docs", "doc", "help", "about", "blog", "blogs", "keys", "usage",
  "admin", "auth", "static", "public", "assets", "www", "new", "edit", "home", "index", "favicon-ico", "robots-txt",
  "sitemap-xml", "preview", "images", "next", "support", "status", "terms", "privacy", "root", "system", "null", "undefined",
]);

export function isReservedHandle(handle: string): boolean {
  return RESERVED_HANDLES.has(handle);
}

/** Format only: `HANDLE_RULE` says it in words. Reserved handles are refused separately. */
export function isValidHandle(handle: string): boolean {
  return handle.length >= HANDLE_MIN_LENGTH && handle.length <= HANDLE_MAX_LENGTH && HANDLE_PATTERN.test(handle);
}

export const HANDLE_RULE = `handle must be ${HANDLE_MIN_LENGTH} to ${HANDLE_MAX_LENGTH} characters: lowercase letters a-z, digits 0-9 and single hyphens between them`;

/** Why `handle` can't be chosen (format or reserved), or null when it can (if free). */
export function handleProblem(handle: string): string | null {
  if (!isValidHandle(handle)) return HANDLE_RULE;
  if (isReservedHandle(handle)) return `the handle ${handle} is reserved`;
  return null;
}

/** A valid handle from an email's local part: "Jane.Doe+news@x.org" -> "jane-doe-news". */
export function handleFromEmail(email: string): string {
  const at = email.lastIndexOf("@");
  const handle = (at === -1 ? email : email.slice(0, at))
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, HANDLE_MAX_LENGTH)
    .replace(/-+$/, "");
  // Too short to be a handle ("a@x.org", "__@x.org"), or reserved ("api@x.org"): pad it rather
  // than refuse the account.
  if (handle.length >= HANDLE_MIN_LENGTH && !isReservedHandle(handle)) return handle;
  return handle ? `${handle.slice(0, HANDLE_MAX_LENGTH - 5).replace(/-+$/, "")}-user` : "user";
}

/** `base`, or the first of `base-2`, `base-3`, … (cut to the maximum length) that is free. */
export async function firstFreeHandle(base: string, isTaken: (handle: string) => Promise<boolean>): Promise<string> {
  if (!(await isTaken(base))) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = base.slice(0, HANDLE_MAX_LENGTH - suffix.length).replace(/-+$/, "") + suffix;
    if (!(await isTaken(candidate))) return candidate;
  }
}
