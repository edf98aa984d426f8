import { Plan } from "~/generated/prisma/enums";
import { DomainError } from "~/server/domain-error";

export const PLANS = Object.values(Plan);

export function parsePlan(value: string): Plan {
  const plan = PLANS.find((p) => p === value);
  if (!plan) throw new DomainError("INVALID_PARAMETER", `plan must be one of ${PLANS.join(", ")}`);
  return plan;
}
