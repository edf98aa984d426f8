import "server-only";
import type { Plan } from "~/shared/plans";
import type { Db } from "~/server/db";
import { findAccountByEmail } from "./find-account";
import { parsePlan } from "./plan";

export async function setPlan(
  db: Db,
  input: { email: string; plan: string },
): Promise<{ id: string; email: string; plan: Plan }> {
  const plan = parsePlan(input.plan);
  const { id, email } = await findAccountByEmail(db, input.email);
  await db.organization.update({ where: { id }, data: { plan } });
  return { id, email, plan };
}
