import "server-only";
import { fork, type ChildProcess } from "node:child_process";
import { setPriority } from "node:os";
import { DomainError, type DomainErrorCode } from "~/server/domain-error";
import { log } from "~/server/log";
import { oneAtATime } from "~/server/one-at-a-time";
import { processImage, type ProcessedImage } from "./process-image";

export interface WorkerRequest {
  id: number;
  bytes: Uint8Array;
}

export type WorkerReply =
  | { id: number; image: ProcessedImage }
  | { id: number; refusal?: { code: DomainErrorCode; message: string; details?: string; field?: string }; failure?: string };

/** The lowest priority: the processor gets the CPU the server and PostgreSQL leave. */
const LOWEST_PRIORITY = 19;
/** An upload taking longer than this (a 40-megapixel image on a busy machine takes seconds) means a stuck processor: it is replaced. */
const PROCESSING_TIMEOUT_MS = 120_000;

interface ImageProcessor {
  script: URL;
  child?: ChildProcess;
  /** Each upload's reply, to the copy of this module that asked (its own error classes: see below). */
  pending: Map<number, (reply: WorkerReply) => void>;
  next: number;
}

// On globalThis: the production server sets it up, and Next's routes in the same process (the
// dashboard's uploads) use it too, from their own copy of this module.
const globalForProcessor = globalThis as unknown as { imageProcessor?: ImageProcessor };

/**
 * Makes uploads in this process be processed by `script` (the compiled image-worker.ts) in a child
 * process at the lowest CPU priority, started at the first upload and again after it exits. The
 * production server does; elsewhere (Vercel's functions, `next dev`, tests of modules) processing
 * runs in process.
 */
export function processImagesInChild(script: URL): void {
  globalForProcessor.imageProcessor ??= { script, pending: new Map(), next: 0 };
}

/**
 * An upload processed (src/server/images/process-image.ts), one at a time per server process: with
 * a child processor, at the lowest CPU priority, so uploads use what reads leave (bench/README.md, (g)).
 */
export function processUpload(bytes: Uint8Array): Promise<ProcessedImage> {
  return oneAtATime("images:processing", () => {
    const processor = globalForProcessor.imageProcessor;
    return processor ? processInChild(processor, bytes) : processImage(bytes);
  });
}

function processInChild(processor: ImageProcessor, bytes: Uint8Array): Promise<ProcessedImage> {
  const child = (processor.child ??= startChild(processor));
  const id = processor.next++;
  // Killed, the processor rejects what it was doing (below) and a new one takes the next upload.
  const timer = setTimeout(() => child.kill("SIGKILL"), PROCESSING_TIMEOUT_MS);
  return new Promise<WorkerReply>((resolve) => {
    processor.pending.set(id, resolve);
    child.send({ id, bytes } satisfies WorkerRequest);
  })
    .finally(() => clearTimeout(timer))
    .then(fromReply);
}

/**
 * A reply as this copy of the module's caller expects it: the server's bundle and Next's each have
 * their own DomainError class, and an error is recognised by the class of the copy that handles it.
 */
function fromReply(reply: WorkerReply): ProcessedImage {
  if ("image" in reply) {
    // Buffers cross the channel as plain Uint8Arrays: viewed as Buffers again, not copied.
    const asBuffer = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    return { ...reply.image, files: reply.image.files.map((file) => ({ ...file, data: asBuffer(file.data) })) };
  }
  if (reply.refusal) throw new DomainError(reply.refusal.code, reply.refusal.message, reply.refusal.details, reply.refusal.field);
  throw new Error(`image processing failed: ${reply.failure}`);
}

function startChild(processor: ImageProcessor): ChildProcess {
  const child = fork(processor.script, { serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
  if (child.pid) setPriority(child.pid, LOWEST_PRIORITY);
  child.on("message", (reply: WorkerReply) => {
    processor.pending.get(reply.id)?.(reply);
    processor.pending.delete(reply.id);
  });
  child.on("exit", (code, signal) => {
    if (processor.child === child) processor.child = undefined;
    if (processor.pending.size > 0) log.error({ code, signal }, "image processor exited while processing");
    for (const [id, answer] of processor.pending) answer({ id, failure: `the processor exited (${signal ?? code})` });
    processor.pending.clear();
  });
  return child;
}
