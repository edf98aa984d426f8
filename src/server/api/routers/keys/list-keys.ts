import "server-only";
import { listApiKeys } from "~/server/keys/list-api-keys";
import { callerAccount } from "~/server/accounts/caller";
import { procedure } from "../../trpc";

/** Owner only (no permission, no OpenAPI meta): the owner's keys, masked, with their status and rotation flag. */
export const listKeysProcedure = procedure.query(({ ctx }) => listApiKeys(ctx.db, callerAccount(ctx.caller).id));
