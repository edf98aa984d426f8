"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { Button } from "~/components/ui/button";
import { DIALOG_CONTENT, DIALOG_OVERLAY } from "~/components/ui/dialog";

/**
 * Told when a save was refused because the blog changed since the form loaded it (If-Match, 412):
 * the owner reloads the stored version (dropping their edits) or overwrites it with theirs.
 */
export function ConflictDialog({
  open,
  onOpenChange,
  onReload,
  onOverwrite,
  busy,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onReload: () => void;
  onOverwrite: () => void;
  busy: boolean;
}) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={DIALOG_OVERLAY} />
        <DialogPrimitive.Content className={DIALOG_CONTENT}>
          <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">This blog was changed elsewhere</DialogPrimitive.Title>
          <DialogPrimitive.Description className="mt-2 text-sm text-slate-600">
            Since you opened it, the blog was saved from another tab or through the API. Reload it to see that version (your
            changes here are discarded), or overwrite it with yours.
          </DialogPrimitive.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <DialogPrimitive.Close asChild>
              <Button variant="ghost">Keep editing</Button>
            </DialogPrimitive.Close>
            <Button variant="secondary" onClick={onReload} disabled={busy}>
              Reload
            </Button>
            <Button variant="danger" onClick={onOverwrite} loading={busy}>
              Overwrite
            </Button>
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
