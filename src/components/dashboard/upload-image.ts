import { TRPCClientError } from "@trpc/client";
import type { AppRouter } from "~/server/api/root";
import type { ImageView } from "~/server/api/routers/images/schemas";
import { UPLOAD_PROCEDURE } from "~/shared/dashboard-limits";
import { asSentence } from "~/lib/format";
import { MAX_IMAGE_BYTES } from "~/shared/images";
import { errorMessage } from "~/trpc/react";
import { sendForm } from "./send-form";

/** How an upload ended. */
export type UploadOutcome = { kind: "uploaded"; image: ImageView } | { kind: "failed"; message: string } | { kind: "cancelled" };

const TOO_LARGE = `This image is too large: an image may be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MiB.`;

/**
 * Uploads `file` to images.upload as a form (a `file` part) with its progress (./send-form.ts):
 * `onProgress` is told the share sent (0 to 1), `signal` cancels. A file over MAX_IMAGE_BYTES is
 * refused before sending.
 */
export async function uploadImage(file: File, { onProgress, signal }: { onProgress: (sent: number) => void; signal: AbortSignal }): Promise<UploadOutcome> {
  if (file.size > MAX_IMAGE_BYTES) return { kind: "failed", message: TOO_LARGE };
  const form = new FormData();
  form.set("file", file);
  const sent = await sendForm(UPLOAD_PROCEDURE, form, { onProgress, signal });
  if (sent.kind === "cancelled") return sent;
  if (sent.kind === "unreachable") return { kind: "failed", message: errorMessage(TRPCClientError.from(new Error("Failed to fetch"))) };
  return outcomeOf(sent.status, sent.answer);
}

/** The outcome tRPC's answer tells: `{result: {data}}`, or `{error: {message, data: {apiCode, details, …}}}`. */
function outcomeOf(status: number, answer: unknown): UploadOutcome {
  const image = (answer as { result?: { data?: { data?: { image?: ImageView } } } } | null)?.result?.data?.data?.image;
  if (status === 200 && image) return { kind: "uploaded", image };
  const error = TRPCClientError.from<AppRouter>(answer ?? {});
  if (error.data) return { kind: "failed", message: refusalMessage(error) };
  return { kind: "failed", message: status === 413 ? TOO_LARGE : `The upload failed (HTTP ${status}). Please try again.` };
}

/** A refusal in the owner's words: what went wrong with the image, then the server's details. */
function refusalMessage(error: TRPCClientError<AppRouter>): string {
  const { apiCode, details } = (error.data ?? {}) as { apiCode?: string; details?: string };
  const withDetails = (lead: string) => (details ? `${lead} ${asSentence(details)}` : lead);
  switch (apiCode) {
    case "UNSUPPORTED_MEDIA_TYPE":
      return "This file is not an image we accept: use a JPEG, PNG, WebP, AVIF or GIF.";
    case "PAYLOAD_TOO_LARGE":
      return TOO_LARGE;
    case "QUOTA_EXCEEDED":
      return withDetails("Your image storage is full.");
    case "INVALID_PARAMETER":
    case "MISSING_REQUIRED_FIELD":
      return withDetails("This image can't be used.");
    default:
      return errorMessage(error);
  }
}
