"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { useRef, type ReactNode } from "react";
import { Button } from "./button";

// Black, which no theme redefines: the page behind dims in dark mode too.
export const DIALOG_OVERLAY = "fixed inset-0 z-40 bg-black/50";
const DIALOG_BOX =
  "fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 rounded-lg border border-slate-200 bg-white p-6 shadow-xl focus:outline-none";
export const DIALOG_CONTENT = `${DIALOG_BOX} max-w-md`;
/** For a dialog holding a grid (the cover picker): wider, and scrolling inside when taller than the screen. */
export const WIDE_DIALOG_CONTENT = `${DIALOG_BOX} max-h-[calc(100dvh-2rem)] max-w-3xl overflow-y-auto`;

/**
 * A confirmation dialog (Radix: focus moves in, is trapped, Escape closes, focus returns to the
 * trigger). `onConfirm` may be async; the dialog stays open, busy, until it settles. When the
 * confirmed action removed the trigger, focus goes to the page's heading; `onCloseAutoFocus`
 * chooses another place (preventDefault and focus).
 */
export function ConfirmDialog({
  trigger,
  title,
  description,
  confirmLabel,
  onConfirm,
  busy,
  open,
  onOpenChange,
  confirmVariant = "danger",
  onCloseAutoFocus,
}: {
  /** The button that opens it; without one, `open` alone does, and focus returns where it was. */
  trigger?: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  confirmVariant?: "primary" | "danger";
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const triggerRef = useRef<HTMLButtonElement>(null);
  // Focus goes back to the trigger, unless the confirmed action removed it (a deactivated key's
  // row loses its button): then to the page's heading, not the page's body.
  const returnFocus = (event: Event) => {
    if (!trigger || triggerRef.current?.isConnected) return;
    event.preventDefault();
    document.querySelector<HTMLElement>("main h1")?.focus();
  };
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      {trigger && (
        <DialogPrimitive.Trigger asChild ref={triggerRef}>
          {trigger}
        </DialogPrimitive.Trigger>
      )}
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={DIALOG_OVERLAY} />
        <DialogPrimitive.Content className={DIALOG_CONTENT} onCloseAutoFocus={onCloseAutoFocus ?? returnFocus}>
          <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">{title}</DialogPrimitive.Title>
          <DialogPrimitive.Description asChild>
            <div className="mt-2 text-sm text-slate-600">{description}</div>
          </DialogPrimitive.Description>
          <div className="mt-6 flex justify-end gap-3">
            <DialogPrimitive.Close asChild>
              <Button variant="secondary">Cancel</Button>
            </DialogPrimitive.Close>
            <Button variant={confirmVariant} onClick={onConfirm} loading={busy}>
              {confirmLabel}
            </Button>
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/** A form dialog's buttons: Cancel closes it, the form's submit button does its job. */
export function FormDialogActions({ submitLabel, busy }: { submitLabel: string; busy?: boolean }) {
  return (
    <div className="flex justify-end gap-3">
      <DialogPrimitive.Close asChild>
        <Button variant="secondary">Cancel</Button>
      </DialogPrimitive.Close>
      <Button type="submit" loading={busy}>
        {submitLabel}
      </Button>
    </div>
  );
}
