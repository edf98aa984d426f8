import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getSessionUser, type SessionUser } from "./auth";

/** The signed-in owner of the page being rendered; otherwise off to sign-in, and back after. */
export async function requireSessionUser(returnTo: string): Promise<SessionUser> {
  const user = await getSessionUser(await headers());
  if (!user) redirect(`/sign-in?next=${encodeURIComponent(returnTo)}`);
  return user;
}

/** Sign-in and sign-up pages: an owner already signed in goes straight on. */
export async function redirectIfSignedIn(to: string): Promise<void> {
  if (await getSessionUser(await headers())) redirect(to);
}
