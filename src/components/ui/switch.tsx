"use client";

import * as SwitchPrimitive from "@radix-ui/react-switch";
import { cn } from "~/lib/cn";

/**
 * An on/off switch (a real button with role="switch"), labelled for screen readers. While `busy`
 * (its change being saved) it ignores clicks but stays enabled: a disabled button would drop the
 * keyboard focus to the page's body.
 */
export function Switch({
  checked,
  onCheckedChange,
  label,
  disabled,
  busy,
  id,
}: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  label: string;
  disabled?: boolean;
  busy?: boolean;
  id?: string;
}) {
  return (
    <SwitchPrimitive.Root
      id={id}
      checked={checked}
      onCheckedChange={(next) => {
        if (!busy) onCheckedChange(next);
      }}
      disabled={disabled}
      aria-label={label}
      aria-busy={busy || undefined}
      className={cn(
        "relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full transition-colors",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
        "disabled:cursor-not-allowed disabled:opacity-60 aria-busy:cursor-wait aria-busy:opacity-60",
        checked ? "bg-indigo-600" : "bg-slate-300",
      )}
    >
      <SwitchPrimitive.Thumb
        className={cn(
          "block size-5 rounded-full bg-white shadow transition-transform",
          checked ? "translate-x-5" : "translate-x-0.5",
        )}
      />
    </SwitchPrimitive.Root>
  );
}
