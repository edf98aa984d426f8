"use client";

import { useRef, useState } from "react";
import { Markdown } from "~/components/markdown";
import { Card, CardTitle } from "~/components/ui/card";
import { Field, Textarea } from "~/components/ui/input";
import { cn } from "~/lib/cn";
import { insertBlock } from "~/lib/markdown-insert";
import type { ImageView } from "~/server/api/routers/images/schemas";
import { AltTextDialog } from "./alt-text-dialog";
import { characterCount } from "./blog-form-values";
import { ChooseImageButton, UploadStatus, useImageUpload } from "./image-upload";
import { imageMarkdown } from "./images-client";

export type ContentView = "write" | "preview";

/**
 * The blog form's content: Markdown written or previewed, and images uploaded into it (chosen,
 * pasted or dropped), each inserted with its alt text where the content's selection was when its
 * upload started; then the caret follows it.
 */
export function BlogContentEditor({
  content,
  onChange,
  error,
  view,
  onViewChange,
}: {
  content: string;
  onChange: (content: string) => void;
  error?: string;
  view: ContentView;
  onViewChange: (view: ContentView) => void;
}) {
  const contentRef = useRef<HTMLTextAreaElement>(null);
  const insertAt = useRef({ start: 0, end: 0 });
  // Until the owner has been in the content, its selection (0, 0) says nothing: an image goes after the text.
  const contentVisited = useRef(false);
  const caretAfterInsert = useRef<number | null>(null);
  const [uploadedImage, setUploadedImage] = useState<ImageView | null>(null);
  const [draggingFile, setDraggingFile] = useState(false);
  const contentUpload = useImageUpload(setUploadedImage);

  const uploadIntoContent = (file: File) => {
    const field = contentRef.current;
    const selection =
      field && contentVisited.current ? { start: field.selectionStart, end: field.selectionEnd } : { start: content.length, end: content.length };
    if (contentUpload.start(file)) insertAt.current = selection;
  };

  const insertImage = (image: ImageView, alt: string) => {
    // On lines of its own where the selection was (within the content, which may have shrunk meanwhile).
    const inserted = insertBlock(content, insertAt.current.start, insertAt.current.end, imageMarkdown(image, alt));
    onChange(inserted.text);
    caretAfterInsert.current = inserted.caret;
    setUploadedImage(null);
  };

  /** Back in the content after the alt text dialog: the caret after the image inserted, else where the upload started. */
  const returnToContent = (event: Event) => {
    const field = contentRef.current;
    if (!field) return;
    event.preventDefault();
    const caret = caretAfterInsert.current ?? insertAt.current.end;
    caretAfterInsert.current = null;
    field.focus();
    field.setSelectionRange(caret, caret);
  };

  return (
    <Card>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <CardTitle>Content</CardTitle>
        <div className="flex flex-wrap items-center gap-3">
          <ChooseImageButton upload={contentUpload} label="Upload image" onChosen={uploadIntoContent} />
          <div role="group" aria-label="Content view" className="inline-flex rounded-md border border-slate-300 p-0.5">
            {(["write", "preview"] as const).map((t) => (
              <button
                key={t}
                type="button"
                aria-pressed={view === t}
                onClick={() => onViewChange(t)}
                className={cn(
                  "rounded px-3 py-1 text-sm font-medium capitalize focus-visible:outline-2 focus-visible:outline-indigo-600",
                  view === t ? "bg-slate-900 text-white" : "text-slate-600 hover:text-slate-900",
                )}
              >
                {t}
              </button>
            ))}
          </div>
        </div>
      </div>
      <UploadStatus upload={contentUpload} />
      {view === "write" ? (
        <Field
          label={<span className="sr-only">Content (Markdown)</span>}
          error={error}
          hint={`Markdown; paste or drop an image to upload it. ${characterCount(content, 500_000)}`}
        >
          {(props) => (
            <Textarea
              {...props}
              ref={contentRef}
              rows={16}
              value={content}
              onChange={(e) => onChange(e.target.value)}
              onFocus={() => (contentVisited.current = true)}
              onPaste={(e) => {
                const image = Array.from(e.clipboardData.files).find((file) => file.type.startsWith("image/"));
                if (!image) return;
                e.preventDefault();
                uploadIntoContent(image);
              }}
              onDragOver={(e) => {
                if (!e.dataTransfer.types.includes("Files")) return;
                e.preventDefault();
                setDraggingFile(true);
              }}
              onDragLeave={() => setDraggingFile(false)}
              onDrop={(e) => {
                const file = e.dataTransfer.files[0];
                if (!file) return;
                e.preventDefault();
                setDraggingFile(false);
                uploadIntoContent(file);
              }}
              className={cn("min-h-80 font-mono", draggingFile && "outline-2 outline-offset-2 outline-indigo-600")}
            />
          )}
        </Field>
      ) : (
        <div data-testid="markdown-preview" className="min-h-80 rounded-md border border-slate-200 p-4">
          {content.trim() ? <Markdown>{content}</Markdown> : <p className="text-sm text-slate-500">Nothing to preview yet.</p>}
        </div>
      )}
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
