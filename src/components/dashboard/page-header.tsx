import type { ReactNode } from "react";

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0">
        {/* Focusable by script: where focus goes when the element that held it is gone (src/components/ui/dialog.tsx). */}
        <h1 tabIndex={-1} className="text-2xl font-semibold tracking-tight wrap-anywhere text-slate-900 focus:outline-none">{title}</h1>
        {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
      </div>
      {actions && <div className="flex gap-2">{actions}</div>}
    </div>
  );
}
