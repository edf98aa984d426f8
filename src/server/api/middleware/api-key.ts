import { presentedApiKey } from "~/server/keys/presented-key";
import { authenticateApiKey, keyUseDue, recordKeyUse, type AuthenticatedKey, type KeyRejection } from "~/server/keys/authenticate";
import type { Permission } from "~/shared/permissions";
import { ApiError } from "../errors";
import type { Context } from "../trpc";
import { countUnauthenticated, reportAccountRate } from "./rate-limit";

const REJECTION_MESSAGES: Record<KeyRejection, string> = {
  unknown: "Invalid API key",
  expired: "API key has expired",
  deactivated: "API key has been deactivated",
};

export function requestApiKey(headers: Headers, url: URL): string | null {
  return presentedApiKey({
    xApiKey: headers.get("x-api-key"),
    authorization: headers.get("authorization"),
    queryApiKey: url.searchParams.get("api_key"),
  });
}

/** Step 1 of the checks (README, The API): the request must present a key that exists, is active and not expired. */
export async function authenticateRequestKey(ctx: Context): Promise<AuthenticatedKey> {
  const presented = requestApiKey(ctx.headers, ctx.url);
  if (!presented) {
    await countUnauthenticated(ctx.headers, ctx.resHeaders);
    throw new ApiError("MISSING_API_KEY", "API key is required");
  }
  const lookup = await authenticateApiKey(ctx.sql, presented);
  if ("rejected" in lookup) {
    await countUnauthenticated(ctx.headers, ctx.resHeaders);
    throw new ApiError("INVALID_API_KEY", REJECTION_MESSAGES[lookup.rejected]);
  }
  const apiKey = lookup.key;
  ctx.outcome.apiKey = apiKey;
  // Scheduled only when due (about once a minute per key), not on every request.
  if (keyUseDue(apiKey)) ctx.afterResponse(() => recordKeyUse(ctx.sql, apiKey));
  return apiKey;
}

/** Step 2: the key must hold the permission the endpoint needs. */
export async function assertPermission(ctx: Context, apiKey: AuthenticatedKey, permission: Permission): Promise<void> {
  if (apiKey.permissions.includes(permission)) return;
  await reportAccountRate(ctx.resHeaders, apiKey);
  throw new ApiError("INSUFFICIENT_PERMISSIONS", `This API key lacks the ${permission} permission`);
}
