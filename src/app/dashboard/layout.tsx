import type { Metadata } from "next";
import { Suspense, type ReactNode } from "react";
import { SignOutButton } from "~/components/auth/sign-out-button";
import { Brand } from "~/components/brand";
import { DashboardNav } from "~/components/dashboard/nav";
import { EmailVerificationBanner } from "~/components/dashboard/email-verification-banner";
import { NewKeyDialog } from "~/components/dashboard/new-key-dialog";
import { requireSessionUser } from "~/app/session";
import { TRPCReactProvider } from "~/trpc/react";

export const metadata: Metadata = { title: { default: "Dashboard", template: "%s · Blog Manager" } };
export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requireSessionUser();
  return (
    <TRPCReactProvider>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto max-w-6xl px-4">
          <div className="flex items-center justify-between gap-3 py-3">
            <Brand href="/dashboard" />
            <div className="flex min-w-0 items-center gap-2 text-sm text-slate-600">
              {/* A plain link: the public site is static HTML outside Next's router (docs/public-blog.md), nothing to prefetch. */}
              <a href={`/${user.handle}`} className="truncate rounded hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600" title="Your public page">
                <span className="hidden sm:inline">{user.email} · </span>/{user.handle}
              </a>
              <SignOutButton />
            </div>
          </div>
          <DashboardNav />
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6">
        <Suspense>
          <EmailVerificationBanner email={user.email} verified={user.emailVerified} />
        </Suspense>
        {children}
      </main>
      <NewKeyDialog />
    </TRPCReactProvider>
  );
}
