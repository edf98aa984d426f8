/** Handles are the first segment of public blog URLs (/{handle}/{blogSlug}). */
export const HANDLE_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const HANDLE_MIN_LENGTH = 3;
export const HANDLE_MAX_LENGTH = 30;

export function isValidHandle(handle: string): boolean {
  return handle.length >= HANDLE_MIN_LENGTH && handle.length <= HANDLE_MAX_LENGTH && HANDLE_PATTERN.test(handle);
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
  // Too short to be a handle ("a@x.org", "__@x.org"): pad it rather than refuse the account.
  if (handle.length >= HANDLE_MIN_LENGTH) return handle;
  return handle ? `${handle}-user` : "user";
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
