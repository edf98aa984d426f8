"use client";

import { useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";

export const RANGE_FIELDS = ["from", "to"] as const;

export type Range = { from?: string; to?: string };

/** The analytics range: two UTC days, both inclusive (the API's from/to); empty means the last 30 days. */
export function RangePicker({ range, errors, onChange }: { range: Range; errors: Partial<Record<"from" | "to" | "form", string>>; onChange: (range: Range) => void }) {
  const [values, setValues] = useState({ from: range.from ?? "", to: range.to ?? "" });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ from: values.from || undefined, to: values.to || undefined });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Date range" className="flex flex-wrap items-end gap-x-4 gap-y-1">
      <Field label="From (UTC)" error={errors.from}>
        {(props) => <Input {...props} type="date" value={values.from} onChange={(e) => setValues((v) => ({ ...v, from: e.target.value }))} />}
      </Field>
      <Field label="To (UTC)" error={errors.to}>
        {(props) => <Input {...props} type="date" value={values.to} onChange={(e) => setValues((v) => ({ ...v, to: e.target.value }))} />}
      </Field>
      <div className="flex gap-2 pb-5">
        <Button type="submit" variant="secondary">
          Show
        </Button>
        <Button
          variant="ghost"
          onClick={() => {
            setValues({ from: "", to: "" });
            onChange({});
          }}
        >
          Last 30 days
        </Button>
      </div>
    </form>
  );
}
