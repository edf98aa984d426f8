"use client";

import dynamic from "next/dynamic";
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from "react";
import { Markdown } from "~/components/markdown";
import { Card, CardTitle, Loading, Skeleton } from "~/components/ui/card";
import { cn } from "~/lib/cn";
import type { ImageView } from "~/server/api/routers/images/schemas";
import { countWords, readingMinutes } from "~/shared/reading-time";
import { AltTextDialog } from "./alt-text-dialog";
import { characterCount } from "./blog-form-values";
import { UploadStatus, useImageUpload } from "./image-upload";
import { imageMarkdown } from "./images-client";
import type { MarkdownEditorHandle, TextPlace } from "./markdown-editor/markdown-editor";

export type ContentView = "write" | "preview";

const EDITOR_HEIGHT = "h-[60vh] min-h-96";

const MarkdownEditor = dynamic(() => import("./markdown-editor/markdown-editor"), {
  ssr: false,
  loading: () => (
    <Loading label="Loading the editor" className="space-y-2">
      <Skeleton className="h-9 w-2/3" />
      <Skeleton className={EDITOR_HEIGHT} />
    </Loading>
  ),
});

/** Side by side from Tailwind's `xl` (1280 px); below, Write and Preview take turns. */
const WIDE = "(min-width: 80rem)";
const subscribeToWidth = (changed: () => void) => {
  const query = window.matchMedia(WIDE);
  query.addEventListener("change", changed);
  return () => query.removeEventListener("change", changed);
};

/** Where the focus may go in focus mode: it cycles among these (the toolbar counts once, by its current button). */
const FOCUS_STOPS = 'button:not([tabindex="-1"]):not([disabled]), [contenteditable="true"]';

/**
 * The blog form's content: Markdown written in the editor (formatting toolbar and shortcuts, focus
 * mode) beside its preview on wide screens, or in turns with it on narrow ones, rendered as the
 * public page renders it; its words, reading time and length; and images uploaded into it (chosen,
 * pasted or dropped), each inserted with its alt text where it was put when its upload started,
 * then the caret after it. `view`, when the form holds it, says which of Write and Preview a narrow
 * screen shows.
 */
export function BlogContentEditor({
  content,
  onChange,
  error,
  view: heldView,
  onViewChange,
}: {
  content: string;
  onChange: (content: string) => void;
  error?: string;
  view?: ContentView;
  onViewChange?: (view: ContentView) => void;
}) {
  const [ownView, setOwnView] = useState<ContentView>("write");
  const view = heldView ?? ownView;
  const setView = onViewChange ?? setOwnView;
  const wide = useSyncExternalStore(subscribeToWidth, () => window.matchMedia(WIDE).matches, () => false);
  const [focusMode, setFocusMode] = useState(false);
  const focusRequested = useRef(false);
  const editor = useRef<MarkdownEditorHandle>(null);
  const insertAt = useRef<TextPlace | null>(null);
  const preview = useRef<HTMLDivElement>(null);
  const [uploadedImage, setUploadedImage] = useState<ImageView | null>(null);
  const upload = useImageUpload(setUploadedImage);
  const id = useId();
  const shownContent = useDeferredValue(content);
  const words = useMemo(() => countWords(shownContent), [shownContent]);

  const showsEditor = focusMode || wide || view === "write";
  const showsPreview = !focusMode && (wide || view === "preview");

  const uploadImage = (file: File, place: TextPlace) => {
    if (insertAt.current) editor.current?.release(insertAt.current);
    insertAt.current = null;
    if (upload.start(file)) insertAt.current = place;
    else editor.current?.release(place);
  };

  const insertImage = (image: ImageView, alt: string) => {
    if (insertAt.current) editor.current?.insertBlock(insertAt.current, imageMarkdown(image, alt));
    insertAt.current = null;
    setUploadedImage(null);
  };

  /** Back in the text after the alt text dialog: the caret after the image inserted, else where the upload started. */
  const returnToContent = (event: Event) => {
    const place = insertAt.current;
    insertAt.current = null;
    if (editor.current?.focus(place)) event.preventDefault();
  };

  const switchFocusMode = (on: boolean) => {
    setFocusMode(on);
    focusRequested.current = true;
  };

  // In focus mode and out of it, the owner is back in the text; the page behind does not scroll.
  useEffect(() => {
    if (focusRequested.current) editor.current?.focus(null);
    focusRequested.current = false;
    if (!focusMode) return;
    const root = document.documentElement;
    const overflow = root.style.overflow;
    root.style.overflow = "hidden";
    return () => {
      root.style.overflow = overflow;
    };
  }, [focusMode]);

  /** Focus mode is a modal dialog: Escape leaves it, Tab cycles within it. */
  const keepFocusIn = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!focusMode) return;
    if (event.key === "Escape" && !event.defaultPrevented) {
      event.preventDefault();
      switchFocusMode(false);
      return;
    }
    if (event.key !== "Tab") return;
    const stops = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUS_STOPS));
    const [first, last] = [stops[0], stops.at(-1)];
    if (!first || !last) return;
    if (event.shiftKey ? document.activeElement === first : document.activeElement === last) {
      event.preventDefault();
      (event.shiftKey ? last : first).focus();
    }
  };

  const syncPreview = (share: number) => {
    const pane = preview.current;
    if (pane) pane.scrollTop = share * (pane.scrollHeight - pane.clientHeight);
  };

  const minutes = readingMinutes(words);
  return (
    <Card>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <CardTitle>Content</CardTitle>
        {!wide && (
          <div role="group" aria-label="Content view" className="inline-flex rounded-md border border-slate-300 p-0.5">
            {(["write", "preview"] as const).map((t) => (
              <button
                key={t}
                type="button"
                aria-pressed={view === t}
                onClick={() => setView(t)}
                className={cn(
                  "rounded px-3 py-1 text-sm font-medium capitalize focus-visible:outline-2 focus-visible:outline-indigo-600",
                  view === t ? "bg-slate-900 text-white" : "text-slate-600 hover:text-slate-900",
                )}
              >
                {t}
              </button>
            ))}
          </div>
        )}
      </div>
      <div
        {...(focusMode && { role: "dialog", "aria-modal": true, "aria-label": "Focus mode" })}
        onKeyDown={keepFocusIn}
        className={cn(focusMode && "fixed inset-0 z-40 flex justify-center bg-white px-4 py-3 sm:px-8 sm:py-6")}
      >
        <div className={cn("flex min-w-0 flex-col", focusMode && "h-full w-full max-w-3xl")}>
          <MarkdownEditor
            content={content}
            onChange={onChange}
            label="Content (Markdown)"
            describedBy={error ? `${id}-hint ${id}-error` : `${id}-hint`}
            invalid={Boolean(error)}
            focusMode={focusMode}
            onFocusModeChange={switchFocusMode}
            onImageFile={uploadImage}
            imageButtonId={upload.buttonId}
            onScroll={wide ? syncPreview : undefined}
            handle={editor}
            className={cn(focusMode && "flex-1")}
            // Focus mode reads like the page: larger type in a centred column.
            boxClassName={focusMode ? "h-full [&_.cm-content]:text-lg" : EDITOR_HEIGHT}
            editorHidden={!showsEditor}
            beside={
              showsPreview && (
                <div
                  ref={preview}
                  data-testid="markdown-preview"
                  role="region"
                  aria-label="Preview"
                  tabIndex={0}
                  className={cn(
                    "min-h-80 min-w-0 rounded-md border border-slate-200 p-4 focus-visible:outline-2 focus-visible:outline-indigo-600",
                    wide && `${EDITOR_HEIGHT} overflow-y-auto`,
                  )}
                >
                  {shownContent.trim() ? <Markdown>{shownContent}</Markdown> : <p className="text-sm text-slate-500">Nothing to preview yet.</p>}
                </div>
              )
            }
          />
          <UploadStatus upload={upload} className="mt-2" />
          <p id={`${id}-hint`} className="text-xs text-slate-600">
            {words.toLocaleString("en")} {words === 1 ? "word" : "words"} · {minutes} min read · {characterCount(content, 500_000)} characters.
            Paste or drop an image to upload it.
          </p>
          <p id={`${id}-error`} role={error ? "alert" : undefined} className="min-h-4 text-xs text-red-600">
            {error ?? ""}
          </p>
        </div>
      </div>
      <AltTextDialog
        key={uploadedImage?.id}
        image={uploadedImage}
        onInsert={(alt) => uploadedImage && insertImage(uploadedImage, alt)}
        onCancel={() => setUploadedImage(null)}
        onCloseAutoFocus={returnToContent}
      />
    </Card>
  );
}
