"use client";

import type { ReactNode } from "react";

/**
 * A set of checkboxes choosing some of `options` (a key's permissions, an endpoint's events):
 * `value` holds the chosen ones, `onChange` gets the new choice. `hint` adds a line under an
 * option; `error` is shown under the group and announced.
 */
export function CheckboxGroup<T extends string>({
  legend,
  options,
  value,
  onChange,
  hint,
  error,
  errorId,
}: {
  legend: string;
  options: readonly T[];
  value: readonly T[];
  onChange: (next: T[]) => void;
  hint?: (option: T) => ReactNode;
  error?: string;
  errorId?: string;
}) {
  return (
    <fieldset aria-describedby={errorId} aria-invalid={error ? true : undefined}>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {options.map((option) => (
          <label key={option} className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-0.5 size-4 accent-indigo-600"
              checked={value.includes(option)}
              onChange={(e) => onChange(e.target.checked ? [...value, option] : value.filter((chosen) => chosen !== option))}
            />
            <span>
              <span className="font-mono text-xs font-medium text-slate-900">{option}</span>
              {hint && <span className="block text-xs text-slate-500">{hint(option)}</span>}
            </span>
          </label>
        ))}
      </div>
      {errorId && (
        <p id={errorId} role={error ? "alert" : undefined} className="mt-1 min-h-4 text-xs text-red-600">
          {error ?? ""}
        </p>
      )}
    </fieldset>
  );
}
