import "server-only";
import type { Plan } from "~/shared/plans";

/**
 * What one account may hold (docs/security.md): the one table every quota rule reads. Quotas bound
 * what an owner (dashboard) or a key (API) can create; the operator CLI is trusted and not bound.
 */
export const QUOTAS = {
  /** Keys neither deactivated, expired nor rolled. */
  activeKeysPerAccount: 50,
  /** Every blog of the account, with or without API access. */
  blogsPerAccount: { free: 1_000, pro: 100_000, enterprise: 1_000_000 } satisfies Record<Plan, number>,
  /** Bytes of images stored (every file of every image: src/server/images/images.ts). */
  imageBytesPerAccount: { free: 100_000_000, pro: 10_000_000_000, enterprise: 100_000_000_000 } satisfies Record<Plan, number>,
} as const;
