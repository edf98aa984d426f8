import type { Metadata } from "next";
import { cookies } from "next/headers";
import { Suspense, type ReactNode } from "react";
import { SignOutButton } from "~/components/auth/sign-out-button";
import { Brand } from "~/components/brand";
import { DashboardNav } from "~/components/dashboard/nav";
import { EmailVerificationBanner } from "~/components/dashboard/email-verification-banner";
import { NewKeyDialog } from "~/components/dashboard/new-key-dialog";
import { PublicationSwitcher } from "~/components/dashboard/publication-switcher";
import { ThemeSelect } from "~/components/dashboard/theme-select";
import { requireSessionUser } from "~/app/session";
import { sessionPublications } from "@blogmgr/server";
import { parseTheme, THEME_COOKIE } from "~/lib/theme";
import { TRPCReactProvider } from "~/trpc/react";

export const metadata: Metadata = { title: { default: "Dashboard", template: "%s · Blog Manager" } };
export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requireSessionUser();
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  // The switcher only for a person in more than one publication (docs/dashboard.md, Members).
  const publications = await sessionPublications(user.userId, user.publication.id);
  return (
    <TRPCReactProvider>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto max-w-6xl px-4">
          {/* On a phone the public page's link takes a line of its own under the brand, theme and sign-out. */}
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 py-3 sm:flex-nowrap">
            <Brand href="/dashboard" />
            {publications.length > 1 && <PublicationSwitcher publications={publications} activeId={user.publication.id} />}
            {/* A plain link: the public site is static HTML outside Next's router (docs/public-blog.md), nothing to prefetch. */}
            <a
              href={`/${user.publication.handle}`}
              className="order-last w-full truncate rounded text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 sm:order-none sm:ml-auto sm:w-auto sm:min-w-0"
              title="The publication's public page"
            >
              <span className="hidden sm:inline">{user.email} · </span>/{user.publication.handle}
            </a>
            <div className="ml-auto flex items-center gap-2 sm:ml-0">
              <ThemeSelect initial={theme} />
              <SignOutButton />
            </div>
          </div>
          <DashboardNav role={user.publication.role} />
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
