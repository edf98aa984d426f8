import "server-only";
import type { KeyStatus, KeyVerification } from "~/server/keys/verify-api-key";
import type { Permission } from "~/shared/permissions";
import { ApiError } from "../errors";
import { resetDetails, setRateLimitHeaders, setRetryAfter } from "../rate-limit-headers";

type Refusal = Exclude<KeyStatus, "valid">;

/** Each status of the key check but `valid`, as the API answers it (README, The API). */
const REFUSALS: Record<Refusal, (verification: KeyVerification, permission: Permission | null) => ApiError> = {
  missing: () => new ApiError("MISSING_API_KEY", "API key is required"),
  unknown: () => new ApiError("INVALID_API_KEY", "Invalid API key"),
  expired: () => new ApiError("INVALID_API_KEY", "API key has expired"),
  deactivated: () => new ApiError("INVALID_API_KEY", "API key has been deactivated"),
  rolled: () => new ApiError("INVALID_API_KEY", "API key has been rolled: its grace period is over, use the key that replaced it"),
  insufficient_permission: (_, permission) => new ApiError("INSUFFICIENT_PERMISSIONS", `This API key lacks the ${permission} permission`),
  rate_limited: ({ rateLimit }) =>
    new ApiError("RATE_LIMIT_EXCEEDED", "Rate limit exceeded", resetDetails(`Hourly limit of ${rateLimit!.limit} requests exceeded`, rateLimit!)),
};

/**
 * Writes the check's rate-limit headers (every status that counted or looked at a bucket) and
 * returns the error to answer with, or null for a valid key. `permission` is the route's (null for
 * /rate_limit, which any valid key may read).
 */
export function keyRefusal(verification: KeyVerification, permission: Permission | null, resHeaders: Headers): ApiError | null {
  if (verification.rateLimit) setRateLimitHeaders(resHeaders, verification.rateLimit);
  if (verification.status === "valid") return null;
  if (verification.status === "rate_limited") setRetryAfter(resHeaders, verification.rateLimit!);
  return REFUSALS[verification.status](verification, permission);
}
