import type { ReactNode } from "react";
import { cn } from "~/lib/cn";

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return <section className={cn("rounded-lg border border-slate-200 bg-white p-5 shadow-xs", className)}>{children}</section>;
}

export function CardTitle({ children, as: Tag = "h2", id }: { children: ReactNode; as?: "h2" | "h3"; id?: string }) {
  return (
    <Tag id={id} className="text-base font-semibold text-slate-900">
      {children}
    </Tag>
  );
}

/** A placeholder block of fixed height while data loads, so the page doesn't jump. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden className={cn("animate-pulse rounded-md bg-slate-200", className)} />;
}

/**
 * Where data is loading: placeholders (Skeleton) announced as one status named by `label`. The
 * role lets the name be given (axe's aria-prohibited-attr refuses a label on a plain element).
 */
export function Loading({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div role="status" aria-busy="true" aria-label={label} className={className}>
      {children}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
      <p className="font-medium text-slate-900">{title}</p>
      {children && <div className="mt-2 text-sm text-slate-600">{children}</div>}
    </div>
  );
}
