import { listApiKeys } from "~/server/keys/list-api-keys";
import { sessionProcedure } from "../../trpc";

/** Dashboard: the owner's keys, masked, with their status and rotation flag. */
export const listKeysProcedure = sessionProcedure.query(({ ctx }) => listApiKeys(ctx.db, ctx.user.id));
