"use client";

import { useState } from "react";
import { Button } from "./button";

/**
 * Copies `text` to the clipboard; says "Copied" on the button and to screen readers (`announce`).
 * Remount it (a `key`) for new text: it starts uncopied.
 */
export function CopyButton({ text, label, announce }: { text: string; label: string; announce: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <>
      <Button
        variant="secondary"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setCopied(true);
          } catch {
            setCopied(false);
          }
        }}
      >
        {copied ? "Copied" : label}
      </Button>
      <p role="status" className="sr-only">
        {copied ? announce : ""}
      </p>
    </>
  );
}
