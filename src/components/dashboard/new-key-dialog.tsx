"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { useSyncExternalStore } from "react";
import { Button } from "~/components/ui/button";
import { CopyButton } from "~/components/ui/copy-button";
import { DIALOG_OVERLAY } from "~/components/ui/dialog";
import { LocalTime } from "~/components/ui/local-time";

/**
 * The key just created or rolled, shown once in a dialog only its "stored" button dismisses:
 * Escape and clicks outside don't close it. It lives in a module-level store and is rendered by
 * the dashboard layout, so it stays open when the page behind it changes (Back included).
 * Kept in memory only, never in storage.
 */
export interface ShownKey {
  key: string;
  name: string;
  /** For a rolled key: when the key it replaces stops working. */
  graceEndsAt?: string | null;
  /** The id of the element focus goes to on dismissal, when the control that led here is gone. */
  returnFocusTo?: string;
}

let shown: ShownKey | null = null;
const listeners = new Set<() => void>();

export function showNewKey(key: ShownKey | null): void {
  shown = key;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function NewKeyDialog() {
  const current = useSyncExternalStore(subscribe, () => shown, () => null);
  if (!current) return null;
  const close = () => showNewKey(null);
  return (
    <DialogPrimitive.Root open onOpenChange={(open) => !open && close()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={DIALOG_OVERLAY} />
        <DialogPrimitive.Content
          onEscapeKeyDown={(event) => event.preventDefault()}
          onInteractOutside={(event) => event.preventDefault()}
          onCloseAutoFocus={(event) => {
            const target = current.returnFocusTo && document.getElementById(current.returnFocusTo);
            if (!target) return;
            event.preventDefault();
            target.focus();
          }}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-xl -translate-x-1/2 -translate-y-1/2 rounded-lg border-2 border-amber-300 bg-white p-6 shadow-xl focus:outline-none"
        >
          <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">Your new key “{current.name}”</DialogPrimitive.Title>
          <DialogPrimitive.Description asChild>
            <div className="mt-2 space-y-2 text-sm">
              <p className="rounded-md bg-amber-50 p-3 font-medium text-amber-900" role="note">
                Copy this key now: it is shown only once and can&apos;t be shown again. Store it somewhere safe.
              </p>
              {current.graceEndsAt && (
                <p className="text-slate-600">
                  The key it replaces keeps working until <LocalTime iso={current.graceEndsAt} />.
                </p>
              )}
            </div>
          </DialogPrimitive.Description>
          <div className="mt-4 flex flex-col gap-2 sm:flex-row">
            <label htmlFor="new-api-key" className="sr-only">
              New API key
            </label>
            <input
              id="new-api-key"
              readOnly
              value={current.key}
              data-testid="new-api-key"
              onFocus={(e) => e.currentTarget.select()}
              // 15px: at 14px Chromium on Linux drops the underscore of DejaVu Sans Mono inside inputs.
              className="h-10 min-w-0 flex-1 rounded-md border border-amber-300 bg-white px-3 font-mono text-[15px]"
            />
            <CopyButton key={current.key} text={current.key} label="Copy key" announce="Key copied to the clipboard" />
          </div>
          <div className="mt-6 flex justify-end">
            <Button onClick={close}>I have stored the key</Button>
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
