import type { ReactNode } from "react";
import { Card, CardTitle } from "~/components/ui/card";

export type AuthError = { code?: string; message?: string; status?: number } | null;
export type Errors<F extends string> = Partial<Record<F | "form", string>>;

/** A card of the account page holding one form: its result in a status line, its form-level error in an alert. */
export function SettingsCard({ title, children, done, error, danger }: { title: string; children: ReactNode; done?: string; error?: string; danger?: boolean }) {
  return (
    <Card className={danger ? "border-red-200" : undefined}>
      <CardTitle>{title}</CardTitle>
      <div className="mt-4">{children}</div>
      <p role="status" className="mt-2 min-h-5 text-sm text-emerald-700">
        {done ?? ""}
      </p>
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
    </Card>
  );
}
