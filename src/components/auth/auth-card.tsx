import type { ReactNode } from "react";
import { Brand } from "~/components/brand";

export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center px-4 py-10">
      <Brand />
      <main className="mt-8 w-full max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-xs">
        <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
        <div className="mt-6">{children}</div>
      </main>
      <p className="mt-6 text-sm text-slate-600">{footer}</p>
    </div>
  );
}
