"use client";

import { useEffect, useRef } from "react";
import { Button } from "./button";

/** How long a toast offering Undo stays. */
export const TOAST_SECONDS = 10;

export interface ToastMessage {
  /** Tells one toast from the next, so the same words shown again restart the countdown. */
  id: number;
  text: string;
  /** Puts things back as they were before the change the toast reports. */
  onUndo?: () => void;
}

/**
 * A toast at the bottom of the screen, read out by screen readers (role=status), with a focusable
 * "Undo" when the change can be undone; it goes after TOAST_SECONDS, or on Undo or "Dismiss". The
 * region is always in the page, so what appears in it is announced.
 */
export function Toast({ message, onDismiss }: { message: ToastMessage | null; onDismiss: () => void }) {
  const dismiss = useRef(onDismiss);
  useEffect(() => {
    dismiss.current = onDismiss;
  });
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => dismiss.current(), TOAST_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [message]);

  return (
    <div role="status" aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4">
      {message && (
        <div className="pointer-events-auto flex max-w-md items-center gap-3 rounded-lg bg-slate-900 px-4 py-3 text-sm text-white shadow-lg">
          <p className="min-w-0">{message.text}</p>
          {message.onUndo && (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                message.onUndo?.();
                onDismiss();
              }}
            >
              Undo
            </Button>
          )}
          <button type="button" onClick={onDismiss} className="rounded px-1 text-slate-300 hover:text-white focus-visible:outline-2 focus-visible:outline-white" aria-label="Dismiss">
            ×
          </button>
        </div>
      )}
    </div>
  );
}
