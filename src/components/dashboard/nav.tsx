"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "~/lib/cn";
import { roleAtLeast, type Role } from "~/shared/roles";

/**
 * The sections, each shown to the roles whose operations it needs (the least role of its
 * procedures' meta: docs/teams.md): a contributor is not offered pages that would only refuse them.
 */
const LINKS: { href: string; label: string; minRole: Role; match: (p: string) => boolean }[] = [
  { href: "/dashboard", label: "Blogs", minRole: "contributor", match: (p) => p === "/dashboard" || p.startsWith("/dashboard/blogs") },
  { href: "/dashboard/publication", label: "Publication", minRole: "administrator", match: (p) => p.startsWith("/dashboard/publication") },
  { href: "/dashboard/images", label: "Images", minRole: "contributor", match: (p) => p.startsWith("/dashboard/images") },
  { href: "/dashboard/subscribers", label: "Subscribers", minRole: "editor", match: (p) => p.startsWith("/dashboard/subscribers") },
  { href: "/dashboard/members", label: "Members", minRole: "contributor", match: (p) => p.startsWith("/dashboard/members") },
  { href: "/dashboard/import", label: "Import & export", minRole: "administrator", match: (p) => p.startsWith("/dashboard/import") },
  { href: "/dashboard/keys", label: "API keys", minRole: "author", match: (p) => p.startsWith("/dashboard/keys") },
  { href: "/dashboard/webhooks", label: "Webhooks", minRole: "administrator", match: (p) => p.startsWith("/dashboard/webhooks") },
  { href: "/dashboard/readers", label: "Readers", minRole: "contributor", match: (p) => p.startsWith("/dashboard/readers") },
  { href: "/dashboard/usage", label: "Usage", minRole: "administrator", match: (p) => p.startsWith("/dashboard/usage") },
  { href: "/dashboard/audit", label: "Audit log", minRole: "administrator", match: (p) => p.startsWith("/dashboard/audit") },
  { href: "/dashboard/api", label: "API reference", minRole: "contributor", match: (p) => p.startsWith("/dashboard/api") },
  { href: "/dashboard/account", label: "Account", minRole: "contributor", match: (p) => p.startsWith("/dashboard/account") },
];

export function DashboardNav({ role }: { role: Role }) {
  const pathname = usePathname() ?? "";
  return (
    // The sections wrap onto a second row rather than scroll out of sight, on a phone and at 1280 px
    // alike (thirteen do not fit one row): every one stays a click away (e2e/owner-experience.spec.ts).
    <nav aria-label="Dashboard" className="-mb-px flex flex-wrap gap-x-1">
      {LINKS.filter((link) => roleAtLeast(role, link.minRole)).map(({ href, label, match }) => {
        const active = match(pathname);
        return (
          <Link
            key={href}
            href={href}
            aria-current={active ? "page" : undefined}
            className={cn(
              "rounded-t-md border-b-2 px-2.5 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-indigo-600",
              active ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900",
            )}
          >
            {label}
          </Link>
        );
      })}
    </nav>
  );
}
