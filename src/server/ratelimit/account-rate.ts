import "server-only";
import { ipRateLimitSubject } from "~/server/http/client-ip";
import { PLAN_HOURLY_LIMITS, type Plan } from "~/shared/plans";
import { configuredRateLimiter } from "./configured";
import type { RateLimitState } from "./index";
import { HOUR_SECONDS } from "./window";

/** Unauthenticated requests are counted per client IP, only to report it: never a 429. */
const UNAUTHENTICATED_HOURLY_LIMIT = 100;

/**
 * Changes an owner may make in the dashboard in a UTC clock hour (docs/security.md): far above what
 * a person saves by hand, while a stolen session or a runaway script is held to a few a minute.
 * Counted apart from the API's budget, which stays the programs'.
 */
export const DASHBOARD_MUTATIONS_PER_HOUR = 300;

const rateLimiter = () => configuredRateLimiter();

export interface RateLimitedAccount {
  accountId: string;
  plan: Plan;
}

/** A bucket's state under its named policy (the plan; "unauthenticated" for client addresses), as the API reports it. */
export interface PolicyRateLimitState extends RateLimitState {
  policy: string;
  windowSeconds: number;
}

const UNAUTHENTICATED_POLICY = "unauthenticated";

const underPolicy = async (policy: string, state: Promise<RateLimitState>): Promise<PolicyRateLimitState> => ({
  ...(await state),
  policy,
  windowSeconds: HOUR_SECONDS,
});

const accountBucket = (account: RateLimitedAccount) => `account:${account.accountId}`;

/** The account's current window, without consuming it (responses that must not consume: 403, 404, 405, /rate_limit; the usage page). */
export function peekAccountRate(account: RateLimitedAccount): Promise<PolicyRateLimitState> {
  return underPolicy(account.plan, rateLimiter().peek(accountBucket(account), PLAN_HOURLY_LIMITS[account.plan]));
}

/** One unit of the account's hourly budget, shared by all its keys (README, The API). */
export function consumeAccountRate(account: RateLimitedAccount): Promise<PolicyRateLimitState> {
  return underPolicy(account.plan, rateLimiter().consume(accountBucket(account), PLAN_HOURLY_LIMITS[account.plan]));
}

/** One unit of the owner's hourly budget of dashboard changes (every mutation, whatever its outcome). */
export function consumeDashboardMutation(accountId: string): Promise<RateLimitState> {
  return rateLimiter().consume(`dashboard-mutations:${accountId}`, DASHBOARD_MUTATIONS_PER_HOUR);
}

/** Counts a request without a valid key against its client IP's bucket, which never refuses. */
export function countUnauthenticated(clientIp: string | null): Promise<PolicyRateLimitState> {
  return underPolicy(UNAUTHENTICATED_POLICY, rateLimiter().consume(`ip:${ipRateLimitSubject(clientIp)}`, UNAUTHENTICATED_HOURLY_LIMIT));
}
