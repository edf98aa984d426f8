import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getSessionUser, safeNextPath, type SessionUser } from "@blogmgr/server";

/**
 * The request's path and query under /dashboard, set by the proxy (src/proxy.ts) over anything a
 * client sent: a layout is not told which page it wraps.
 */
const DASHBOARD_PATH_HEADER = "x-dashboard-path";

/** The signed-in owner of the dashboard page being rendered; otherwise off to sign-in, and back to that page after. */
export async function requireSessionUser(): Promise<SessionUser> {
  const requestHeaders = await headers();
  const user = await getSessionUser(requestHeaders);
  if (!user) redirect(`/sign-in?next=${encodeURIComponent(safeNextPath(requestHeaders.get(DASHBOARD_PATH_HEADER)))}`);
  return user;
}

/** Sign-in and sign-up pages: an owner already signed in goes straight on. */
export async function redirectIfSignedIn(to: string): Promise<void> {
  if (await getSessionUser(await headers())) redirect(to);
}
