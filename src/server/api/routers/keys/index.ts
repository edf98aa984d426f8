import "server-only";
import { createTRPCRouter } from "../../trpc";
import { createKeyProcedure } from "./create-key";
import { deactivateKeyProcedure } from "./deactivate-key";
import { listKeysProcedure } from "./list-keys";

/** API keys, for their owner in the dashboard (not part of /api/v1). */
export const keysRouter = createTRPCRouter({
  list: listKeysProcedure,
  create: createKeyProcedure,
  deactivate: deactivateKeyProcedure,
});
