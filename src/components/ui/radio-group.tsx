"use client";

/** One choice among `options` (a key's expiration, a roll's grace), each shown by its label. */
export function RadioGroup<T extends string>({
  legend,
  name,
  options,
  labels,
  value,
  onChange,
  className = "flex flex-wrap gap-x-4 gap-y-2",
}: {
  legend: string;
  name: string;
  options: readonly T[];
  labels: Record<T, string>;
  value: T;
  onChange: (next: T) => void;
  /** The layout of the options. */
  className?: string;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className={`mt-2 ${className}`}>
        {options.map((option) => (
          <label key={option} className="flex items-center gap-2 text-sm">
            <input type="radio" name={name} value={option} className="size-4 accent-indigo-600" checked={value === option} onChange={() => onChange(option)} />
            {labels[option]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
