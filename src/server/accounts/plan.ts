import "server-only";
import { DomainError } from "~/server/common/domain-error";
import { PLANS, type Plan } from "~/shared/plans";

export function parsePlan(value: string): Plan {
  const plan = PLANS.find((p) => p === value);
  if (!plan) throw new DomainError("INVALID_PARAMETER", `plan must be one of ${PLANS.join(", ")}`);
  return plan;
}
