"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { useId, useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { DIALOG_CONTENT, DIALOG_OVERLAY } from "~/components/ui/dialog";
import { Field, Input } from "~/components/ui/input";
import type { ImageView } from "~/server/api/routers/images/schemas";
import { ImageThumbnail } from "./image-thumbnail";
import { describeImage } from "./images-client";

/**
 * Asks for the alt text of an image just uploaded, before it goes into the Markdown: required,
 * unless the owner ticks "Decorative image" (then empty, so screen readers skip it). `image` null:
 * closed. Remount it (a `key`) for each image: it starts empty.
 */
export function AltTextDialog({
  image,
  onInsert,
  onCancel,
  onCloseAutoFocus,
}: {
  image: ImageView | null;
  onInsert: (alt: string) => void;
  onCancel: () => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const [alt, setAlt] = useState("");
  const [decorative, setDecorative] = useState(false);
  const [error, setError] = useState("");
  const decorativeId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Portalled out of the blog form's DOM but not out of its React tree, where a submit bubbles on.
    event.stopPropagation();
    if (decorative) return onInsert("");
    if (alt.trim() === "") return setError("Describe the image, or tick “Decorative image”.");
    onInsert(alt.trim());
  };

  return (
    <DialogPrimitive.Root open={image !== null} onOpenChange={(open) => !open && onCancel()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={DIALOG_OVERLAY} />
        <DialogPrimitive.Content className={DIALOG_CONTENT} onCloseAutoFocus={onCloseAutoFocus}>
          <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">Describe the image</DialogPrimitive.Title>
          <DialogPrimitive.Description className="mt-2 text-sm text-slate-600">
            Alt text is read out to people who can&apos;t see the image, and shown where it doesn&apos;t load.
          </DialogPrimitive.Description>
          {image && (
            <figure className="mt-4 flex items-center gap-3">
              <ImageThumbnail image={image} className="h-20 w-28 shrink-0 rounded border border-slate-200" />
              <figcaption className="text-xs text-slate-600">{describeImage(image)}</figcaption>
            </figure>
          )}
          <form onSubmit={submit} noValidate className="mt-4 space-y-3">
            <Field label="Alt text" error={error} hint="What the image shows that matters to the text around it.">
              {(props) => (
                <Input
                  {...props}
                  value={alt}
                  disabled={decorative}
                  onChange={(event) => {
                    setAlt(event.target.value);
                    setError("");
                  }}
                />
              )}
            </Field>
            <div className="flex items-start gap-2">
              <input
                id={`${decorativeId}-box`}
                type="checkbox"
                aria-describedby={`${decorativeId}-hint`}
                className="mt-0.5 size-4 accent-indigo-600"
                checked={decorative}
                onChange={(event) => {
                  setDecorative(event.target.checked);
                  setError("");
                }}
              />
              <div>
                <label htmlFor={`${decorativeId}-box`} className="text-sm text-slate-800">
                  Decorative image
                </label>
                <p id={`${decorativeId}-hint`} className="text-xs text-slate-500">
                  It adds nothing to the text: no alt text, and screen readers skip it.
                </p>
              </div>
            </div>
            <div className="flex flex-wrap justify-end gap-3 pt-3">
              <DialogPrimitive.Close asChild>
                <Button variant="secondary">Don&apos;t insert</Button>
              </DialogPrimitive.Close>
              <Button type="submit">Insert image</Button>
            </div>
          </form>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
