import { forwardRef, useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";
import { cn } from "~/lib/cn";

const FIELD =
  "block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-xs placeholder:text-slate-400 " +
  "focus:outline-2 focus:outline-offset-0 focus:outline-indigo-600 disabled:bg-slate-50";

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean }>(
  function Input({ className, invalid, ...props }, ref) {
    return (
      <input
        ref={ref}
        aria-invalid={invalid || undefined}
        className={cn(FIELD, "h-10", invalid ? "border-red-500" : "border-slate-300", className)}
        {...props}
      />
    );
  },
);

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement> & { invalid?: boolean }>(
  function Textarea({ className, invalid, ...props }, ref) {
    return (
      <textarea
        ref={ref}
        aria-invalid={invalid || undefined}
        className={cn(FIELD, invalid ? "border-red-500" : "border-slate-300", className)}
        {...props}
      />
    );
  },
);

export function Label({ htmlFor, children, className }: { htmlFor?: string; children: ReactNode; className?: string }) {
  return (
    <label htmlFor={htmlFor} className={cn("block text-sm font-medium text-slate-800", className)}>
      {children}
    </label>
  );
}

/**
 * A labelled control with its hint and its error, wired for assistive technology. The error line
 * keeps its height reserved, so messages appearing don't shift the form.
 */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  children: (props: { id: string; "aria-describedby": string | undefined; invalid: boolean }) => ReactNode;
}) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="space-y-1">
      <Label htmlFor={id}>{label}</Label>
      {children({ id, "aria-describedby": describedBy || undefined, invalid: Boolean(error) })}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      <p id={`${id}-error`} role={error ? "alert" : undefined} className="min-h-4 text-xs text-red-600">
        {error ?? ""}
      </p>
    </div>
  );
}
