"use client";

import { useQueryClient } from "@tanstack/react-query";
import { forwardRef, useEffect, useId, useRef, useState } from "react";
import { Button, Spinner } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import type { ImageView } from "~/server/api/routers/images/schemas";
import { contentTypeOf, IMAGE_FORMATS } from "~/shared/images";
import { refreshImages } from "./images-client";
import { uploadImage } from "./upload-image";

/** What the file picker offers; the server still decides by the content (415 otherwise). */
const ACCEPTED_TYPES = IMAGE_FORMATS.map(contentTypeOf).join(",");

export interface ImageUpload {
  /** Uploads `file` and says true, unless one is already on its way (then says so to the owner, and false here). */
  start: (file: File) => boolean;
  /** Stops the upload on its way, and gives the focus back to the upload button. */
  cancel: () => void;
  /** The upload on its way: its file's name and the share sent, 0 to 1. */
  progress: { fileName: string; sent: number } | null;
  /** The last upload's end, told to the owner. */
  message: { text: string; isError: boolean } | null;
  /** The id of the button choosing a file: where the focus goes when the progress bar's Cancel goes away. */
  buttonId: string;
}

/** One image upload at a time, its progress and outcome; `onUploaded` gets the stored image. */
export function useImageUpload(onUploaded: (image: ImageView) => void): ImageUpload {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<ImageUpload["progress"]>(null);
  const [message, setMessage] = useState<ImageUpload["message"]>(null);
  const inFlight = useRef<AbortController | null>(null);
  const buttonId = useId();

  // An upload left running would insert into a form that is gone.
  useEffect(() => () => inFlight.current?.abort(), []);

  const start = (file: File) => {
    if (inFlight.current) {
      setMessage({ text: "Wait for the upload on its way to finish, or cancel it.", isError: true });
      return false;
    }
    void send(file);
    return true;
  };

  const send = async (file: File) => {
    const controller = new AbortController();
    inFlight.current = controller;
    setMessage(null);
    setProgress({ fileName: file.name, sent: 0 });
    const outcome = await uploadImage(file, { signal: controller.signal, onProgress: (sent) => setProgress({ fileName: file.name, sent }) });
    inFlight.current = null;
    setProgress(null);
    if (outcome.kind === "cancelled") setMessage({ text: "Upload cancelled.", isError: false });
    if (outcome.kind === "failed") setMessage({ text: outcome.message, isError: true });
    if (outcome.kind === "uploaded") {
      setMessage({ text: `Uploaded ${file.name}.`, isError: false });
      void refreshImages(queryClient);
      onUploaded(outcome.image);
    }
  };

  const cancel = () => {
    inFlight.current?.abort();
    document.getElementById(buttonId)?.focus();
  };

  return { start, cancel, progress, message, buttonId };
}

/** A button opening the system's file picker for one image, handed to `upload`. */
export function ChooseImageButton({
  upload,
  label,
  variant = "secondary",
  onChosen = (file) => void upload.start(file),
}: {
  upload: ImageUpload;
  label: string;
  variant?: "primary" | "secondary";
  /** What a chosen file starts: the upload itself, unless the caller starts it (and notes where it goes). */
  onChosen?: (file: File) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <ImageFileInput ref={input} onChosen={onChosen} />
      <Button id={upload.buttonId} variant={variant} size="sm" onClick={() => input.current?.click()}>
        {label}
      </Button>
    </>
  );
}

/** The system's file picker for one image (hidden: a button clicks it), the file chosen handed to `onChosen`. */
export const ImageFileInput = forwardRef<HTMLInputElement, { onChosen: (file: File) => void }>(function ImageFileInput({ onChosen }, ref) {
  return (
    <input
      ref={ref}
      type="file"
      accept={ACCEPTED_TYPES}
      hidden
      onChange={(event) => {
        const file = event.target.files?.[0];
        // Emptied, so choosing the same file again is a change too.
        event.target.value = "";
        if (file) onChosen(file);
      }}
    />
  );
});

/** The upload's progress bar with its Cancel button, then how it ended. */
export function UploadStatus({ upload, className }: { upload: ImageUpload; className?: string }) {
  const id = useId();
  const { progress, message } = upload;
  // All sent: the server is still making the variants, for a second or two.
  const processing = progress !== null && progress.sent >= 1;
  return (
    <div className={className}>
      {progress && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-slate-200 bg-slate-50 px-3 py-2">
          <label htmlFor={id} className="flex min-w-0 flex-1 basis-40 items-center gap-2 text-sm text-slate-700">
            {processing && <Spinner className="text-indigo-600" />}
            <span className="truncate">
              {processing ? "Processing" : "Uploading"} {progress.fileName}
            </span>
          </label>
          <progress
            id={id}
            max={1}
            value={progress.sent}
            className={cn(
              "h-2 w-32 appearance-none overflow-hidden rounded-full",
              "[&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-indigo-600 [&::-moz-progress-bar]:bg-indigo-600",
            )}
          />
          <span aria-hidden className="w-10 text-right text-sm text-slate-600 tabular-nums">
            {Math.round(progress.sent * 100)}%
          </span>
          <Button variant="ghost" size="sm" onClick={upload.cancel}>
            Cancel upload
          </Button>
        </div>
      )}
      <p role={message?.isError ? "alert" : "status"} className={cn("min-h-5 text-sm", message?.isError ? "text-red-600" : "text-slate-600")}>
        {message?.text ?? ""}
      </p>
    </div>
  );
}
