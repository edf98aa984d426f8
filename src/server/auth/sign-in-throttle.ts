import "server-only";
import type { BetterAuthRateLimitOptions } from "better-auth";
import { createHash } from "node:crypto";
import { sharedStoreClient } from "~/server/ratelimit";
import { configuredRateLimiter, configuredStore } from "~/server/ratelimit/configured";
import { createBackoff, type Backoff, type BackoffPolicy } from "~/server/ratelimit/backoff";
import { endpointPolicy, isCredentialCheck } from "./endpoint-policies";

/** Sign-in, sign-up and password- or code-checking attempts allowed per client IP and minute, each (docs/security.md). */
export const AUTH_ATTEMPTS_PER_MINUTE = 10;

/** Failed sign-ins (passwords and second-factor codes) for one email before each further attempt must wait (docs/security.md). */
export const SIGN_IN_BACKOFF: BackoffPolicy = {
  freeAttempts: 5,
  firstDelaySeconds: 30,
  maxDelaySeconds: 15 * 60,
  forgetAfterSeconds: 60 * 60,
};

/**
 * The throttles of sign-in, in the rate-limit store the API uses (shared by every instance when
 * Redis or Upstash is configured): per address the process's limiter under its own prefix, per
 * email a backoff, made at first use.
 */
let signInBackoff: Backoff | undefined;

export function authThrottle() {
  signInBackoff ??= createBackoff("sign-in", SIGN_IN_BACKOFF, sharedStoreClient(configuredStore()));
  return { perIp: configuredRateLimiter("auth-ratelimit"), perEmail: signInBackoff };
}

/** The email's throttle subject: a digest, so the store holds no addresses. */
export function emailSubject(email: unknown): string {
  const normalized = typeof email === "string" ? email.trim().toLowerCase() : "";
  return createHash("sha256").update(normalized).digest("hex");
}

/** better-auth's per-address counts, kept by the per-address limiter. */
export const authAttemptStorage: NonNullable<BetterAuthRateLimitOptions["customStorage"]> = {
  // better-auth's key is "<address>|<path>": the credential checks share one bucket per address.
  async consume(key, rule) {
    const separator = key.lastIndexOf("|");
    const policy = endpointPolicy(key.slice(separator + 1));
    const bucket = policy && isCredentialCheck(policy) ? `${key.slice(0, separator)}|password-check` : key;
    const state = await authThrottle().perIp.consume(bucket, rule.max, rule.window);
    return { allowed: state.success, retryAfter: state.success ? null : Math.max(1, Math.ceil((state.reset - Date.now()) / 1000)) };
  },
};
