import "server-only";
/**
 * One of the production server's image processors (`npm start`): a child process at the lowest
 * CPU priority (src/server/images/processing.ts starts one per place of processing), processing
 * one upload at a time as asked over IPC, killed when its upload's client goes away. Compiled by
 * `npm run build` beside the server (scripts/lib/server-core.ts).
 */
import { DomainError } from "~/server/common/domain-error";
import { processImage } from "./process-image";
import type { WorkerReply, WorkerRequest } from "./processing";

process.on("message", (request: WorkerRequest) => {
  const reply = (message: WorkerReply) => process.send?.(message);
  processImage(request.bytes, request.stage).then(
    (image) => reply({ id: request.id, image }),
    (error: unknown) =>
      reply({
        id: request.id,
        refusal: error instanceof DomainError ? { code: error.code, message: error.message, details: error.details, field: error.field } : undefined,
        failure: error instanceof DomainError ? undefined : String(error),
      }),
  );
});
// The server going away takes its processor with it.
process.on("disconnect", () => process.exit(0));
