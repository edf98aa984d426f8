import "server-only";
import { createTRPCRouter } from "../../trpc";
import { createKeyProcedure } from "./create-key";
import { deactivateKeyProcedure } from "./deactivate-key";
import { keyActivityProcedure } from "./key-activity";
import { listKeysProcedure } from "./list-keys";
import { endKeyGraceProcedure, rollKeyProcedure } from "./roll-key";
import { updateKeyProcedure } from "./update-key";

/** API keys, for their owner in the dashboard (not part of /api/v1). */
export const keysRouter = createTRPCRouter({
  list: listKeysProcedure,
  create: createKeyProcedure,
  update: updateKeyProcedure,
  roll: rollKeyProcedure,
  endGrace: endKeyGraceProcedure,
  deactivate: deactivateKeyProcedure,
  activity: keyActivityProcedure,
});
