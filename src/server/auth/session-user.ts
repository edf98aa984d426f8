import "server-only";
import { PLANS, type Plan } from "~/shared/plans";
import { getAuth } from "./config";

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  handle: string;
  plan: Plan;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
};

/** The signed-in owner of a request, or null. */
export async function getSessionUser(headers: Headers): Promise<SessionUser | null> {
  const session = await getAuth().api.getSession({ headers });
  if (!session) return null;
  const { id, email, name, handle, plan, emailVerified, twoFactorEnabled } = session.user;
  return { id, email, name, handle: handle ?? "", plan: PLANS.find((p) => p === plan) ?? "free", emailVerified, twoFactorEnabled: twoFactorEnabled === true };
}
