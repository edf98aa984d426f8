import "server-only";
import { fork, type ChildProcess } from "node:child_process";
import { setPriority } from "node:os";
import { DomainError, type DomainErrorCode } from "~/server/common/domain-error";
import { log } from "~/server/runtime/log";
import { MAX_IMAGE_PIXELS } from "~/shared/images";
import { inspectUpload, processImage, uploadCost, type ProcessedImage, type ProcessingStage } from "./process-image";

export interface WorkerRequest {
  id: number;
  bytes: Uint8Array;
  stage: ProcessingStage;
}

export type WorkerReply =
  | { id: number; image: ProcessedImage }
  | { id: number; refusal?: { code: DomainErrorCode; message: string; details?: string; field?: string }; failure?: string };

/** The lowest priority: the processors get the CPU the server and PostgreSQL leave. */
const LOWEST_PRIORITY = 19;
/** An upload taking longer than this (a 40-megapixel image on a busy machine takes seconds) means a stuck processor: it is replaced. */
const PROCESSING_TIMEOUT_MS = 120_000;

/**
 * The rules of upload fairness (docs/security.md, Upload fairness), per server process. Uploads are
 * processed two at a time, each account's one at a time; an upload decoding more than
 * HEAVY_UPLOAD_COST pixels (every frame counted) is heavy, and only one heavy upload is processed at
 * a time, so the other place always serves light uploads. An account may have at most
 * ACCOUNT_COST_LIMIT pixels waiting and in processing.
 */
const PROCESSING_PLACES = 2;
const HEAVY_UPLOAD_COST = 8_000_000;
export const ACCOUNT_COST_LIMIT = 4 * MAX_IMAGE_PIXELS;
/** Retry-After of an upload refused for its account's queue: about what a heavy upload takes. */
export const BUSY_RETRY_AFTER_SECONDS = 10;

interface Upload {
  id: number;
  accountId: string;
  bytes: Uint8Array;
  stage: ProcessingStage;
  cost: number;
  heavy: boolean;
  signal?: AbortSignal;
  resolve: (image: ProcessedImage) => void;
  reject: (error: unknown) => void;
}

/** One place of processing: with a child processor, its process; the upload it is processing. */
interface Place {
  child?: ChildProcess;
  upload?: Upload;
}

interface Processing {
  /** The compiled image-worker.ts, when uploads are processed in child processes. */
  script?: URL;
  places: Place[];
  /** Uploads waiting for a place, in the order they are to be taken (accounts in turn). */
  waiting: Upload[];
  /** Cost of each account's uploads waiting and in processing. */
  costByAccount: Map<string, number>;
  next: number;
}

// The production server sets it up; the dashboard's uploads, through Next's route, use it too.
const processing: Processing = {
  places: Array.from({ length: PROCESSING_PLACES }, () => ({})),
  waiting: [],
  costByAccount: new Map(),
  next: 0,
};

/**
 * Makes uploads in this process be processed by `script` (the compiled image-worker.ts) in child
 * processes at the lowest CPU priority, one per place, started at its first upload and again after
 * it exits. The production server does; elsewhere (Vercel's functions, `next dev`, tests of
 * modules) processing runs in process.
 */
export function processImagesInChild(script: URL): void {
  processing.script ??= script;
}

/**
 * An upload processed (src/server/images/process-image.ts) under the rules of upload fairness: its
 * header checked at once (refusals wait for nothing), then its turn, then the processing. With
 * `signal` aborted (the client went away) a waiting upload leaves the queue and one in processing is
 * stopped: its child processor is killed (a new one takes the next upload), or in process it stops
 * before its next step. `stage` "variants": a stored original's other variants (the image_variants
 * job), under the same rules, so they take their account's turn and the lowest CPU priority.
 */
export async function processUpload(
  bytes: Uint8Array,
  { accountId, signal, stage = "upload" }: { accountId: string; signal?: AbortSignal; stage?: ProcessingStage },
): Promise<ProcessedImage> {
  const cost = uploadCost(await inspectUpload(bytes));
  signal?.throwIfAborted();
  const held = processing.costByAccount.get(accountId) ?? 0;
  if (held + cost > ACCOUNT_COST_LIMIT) throw new UploadsBusyError(held);
  processing.costByAccount.set(accountId, held + cost);
  let upload: Upload | undefined;
  const onAbort = () => upload && abandon(processing, upload);
  signal?.addEventListener("abort", onAbort, { once: true });
  return new Promise<ProcessedImage>((resolve, reject) => {
    upload = { id: processing.next++, accountId, bytes, stage, cost, heavy: cost > HEAVY_UPLOAD_COST, signal, resolve, reject };
    processing.waiting.push(upload);
    startWaiting(processing);
  }).finally(() => {
    signal?.removeEventListener("abort", onAbort);
    const left = (processing.costByAccount.get(accountId) ?? 0) - cost;
    if (left > 0) processing.costByAccount.set(accountId, left);
    else processing.costByAccount.delete(accountId);
  });
}

/** The account's uploads waiting and in processing pass ACCOUNT_COST_LIMIT: a 429, to retry later. */
export class UploadsBusyError extends DomainError {
  constructor(held: number) {
    super(
      "RATE_LIMIT_EXCEEDED",
      "Too many uploads being processed",
      `This account's uploads waiting to be processed decode ${(held / 1_000_000).toFixed(1)} megapixels (every frame counted); ` +
        `at most ${ACCOUNT_COST_LIMIT / 1_000_000} may wait at once: retry once some are done`,
    );
  }
}

/** Gives free places to the first waiting uploads allowed to start: their account has none in processing, and a heavy one only when no other heavy one is. */
function startWaiting(state: Processing): void {
  for (const place of state.places) {
    if (place.upload) continue;
    const running = state.places.flatMap(({ upload }) => (upload ? [upload] : []));
    const index = state.waiting.findIndex((upload) => running.every((other) => other.accountId !== upload.accountId && !(upload.heavy && other.heavy)));
    if (index < 0) return;
    const [upload] = state.waiting.splice(index, 1) as [Upload];
    // The account's other uploads go behind every other account's: accounts take turns.
    const own = state.waiting.filter((other) => other.accountId === upload.accountId);
    state.waiting = [...state.waiting.filter((other) => other.accountId !== upload.accountId), ...own];
    place.upload = upload;
    log.debug({ accountId: upload.accountId, cost: upload.cost, heavy: upload.heavy }, "image processing started");
    // Whatever fails, starting a processor included, settles this upload and frees its place.
    Promise.resolve()
      .then(() => (state.script ? processInChild(state.script, place, upload) : processImage(upload.bytes, upload.stage, upload.signal)))
      // Stopped because its client went away, it fails with the abort's reason.
      .then(upload.resolve, (error: unknown) => upload.reject(upload.signal?.aborted ? upload.signal.reason : error))
      .finally(() => {
        if (place.upload === upload) place.upload = undefined;
        startWaiting(state);
      });
  }
}

/** The client went away: the upload leaves the queue, or its processing stops. */
function abandon(state: Processing, upload: Upload): void {
  const place = state.places.find((candidate) => candidate.upload === upload);
  log.info({ accountId: upload.accountId, cost: upload.cost, running: Boolean(place) }, "image processing abandoned: the client went away");
  if (!place) {
    state.waiting = state.waiting.filter((other) => other !== upload);
    upload.reject(upload.signal?.reason);
    return;
  }
  // In a child, the work is stopped at once; in process, before its next step (processImage).
  place.child?.kill("SIGKILL");
}

function processInChild(script: URL, place: Place, upload: Upload): Promise<ProcessedImage> {
  const child = (place.child ??= startChild(script, place));
  // Killed, the processor answers with a failure (below) and a new one takes the next upload.
  const timer = setTimeout(() => child.kill("SIGKILL"), PROCESSING_TIMEOUT_MS);
  let stopListening = () => {};
  return new Promise<WorkerReply>((resolve) => {
    const onMessage = (reply: WorkerReply) => reply.id === upload.id && resolve(reply);
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      if (!upload.signal?.aborted) log.error({ code, signal }, "image processor exited while processing");
      resolve({ id: upload.id, failure: `the processor exited (${signal ?? code})` });
    };
    child.on("message", onMessage).once("exit", onExit);
    stopListening = () => child.off("message", onMessage).off("exit", onExit);
    child.send({ id: upload.id, bytes: upload.bytes, stage: upload.stage } satisfies WorkerRequest);
  })
    .finally(() => {
      clearTimeout(timer);
      stopListening();
    })
    .then(fromReply);
}

/** The processor's reply: a refusal crossed the channel as plain data, and is a DomainError again here. */
function fromReply(reply: WorkerReply): ProcessedImage {
  if ("image" in reply) {
    // Buffers cross the channel as plain Uint8Arrays: viewed as Buffers again, not copied.
    const asBuffer = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    return { ...reply.image, files: reply.image.files.map((file) => ({ ...file, data: asBuffer(file.data) })) };
  }
  if (reply.refusal) throw new DomainError(reply.refusal.code, reply.refusal.message, reply.refusal.details, reply.refusal.field);
  throw new Error(`image processing failed: ${reply.failure}`);
}

function startChild(script: URL, place: Place): ChildProcess {
  const child = fork(script, { serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
  if (child.pid) setPriority(child.pid, LOWEST_PRIORITY);
  child.once("exit", () => {
    if (place.child === child) place.child = undefined;
  });
  return child;
}
