import "server-only";
import { callerAccount, type Caller } from "~/server/accounts/caller";

/**
 * The blogs a caller may see: always one account's; for an API key only those with API access
 * (README, The API), for the owner all of them.
 */
export interface BlogScope {
  accountId: string;
  apiAccessOnly: boolean;
}

export function blogScope(caller: Caller): BlogScope {
  return { accountId: callerAccount(caller).id, apiAccessOnly: caller.kind === "apiKey" };
}

/** The scope as a Prisma `where` on "blog". */
export function blogScopeWhere(scope: BlogScope) {
  return scope.apiAccessOnly ? { userId: scope.accountId, allowApiAccess: true } : { userId: scope.accountId };
}
