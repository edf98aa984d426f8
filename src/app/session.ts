import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getSessionUser, safeNextPath, sessionMember, type SessionMember } from "@blogmgr/server";

/**
 * The request's path and query under /dashboard, set by the proxy (src/proxy.ts) over anything a
 * client sent: a layout is not told which page it wraps.
 */
const DASHBOARD_PATH_HEADER = "x-dashboard-path";

/**
 * The signed-in member of the dashboard page being rendered, in their session's publication;
 * otherwise off to sign-in, and back to that page after. A person who belongs to no publication
 * (they transferred their own and left it: docs/teams.md) is told so.
 */
export async function requireSessionUser(): Promise<SessionMember> {
  const requestHeaders = await headers();
  const user = await getSessionUser(requestHeaders);
  if (!user) redirect(`/sign-in?next=${encodeURIComponent(safeNextPath(requestHeaders.get(DASHBOARD_PATH_HEADER)))}`);
  const member = sessionMember(user);
  if (!member) redirect("/no-publication");
  return member;
}

/** Sign-in and sign-up pages: an owner already signed in goes straight on. */
export async function redirectIfSignedIn(to: string): Promise<void> {
  if (await getSessionUser(await headers())) redirect(to);
}
