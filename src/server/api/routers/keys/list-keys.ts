import "server-only";
import { listApiKeys } from "~/server/keys/list-api-keys";
import { callerAccount } from "~/server/accounts/caller";
import { ownerProcedure } from "../../trpc";

/** Dashboard only (ownerProcedure, no OpenAPI meta): the publication's keys, masked, with their status, rotation flag and maker. */
export const listKeysProcedure = ownerProcedure.meta({ minRole: "author" }).query(({ ctx }) => listApiKeys(ctx.db, callerAccount(ctx.caller).id));
