import "server-only";
import { listApiKeys } from "~/server/keys/list-api-keys";
import { callerAccount } from "~/server/accounts/caller";
import { ownerProcedure } from "../../trpc";

/** Owner only (ownerProcedure, no OpenAPI meta): the owner's keys, masked, with their status and rotation flag. */
export const listKeysProcedure = ownerProcedure.query(({ ctx }) => listApiKeys(ctx.db, callerAccount(ctx.caller).id));
