"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "~/lib/cn";

const LINKS = [
  { href: "/dashboard", label: "Blogs", match: (p: string) => p === "/dashboard" || p.startsWith("/dashboard/blogs") },
  { href: "/dashboard/publication", label: "Publication", match: (p: string) => p.startsWith("/dashboard/publication") },
  { href: "/dashboard/images", label: "Images", match: (p: string) => p.startsWith("/dashboard/images") },
  { href: "/dashboard/subscribers", label: "Subscribers", match: (p: string) => p.startsWith("/dashboard/subscribers") },
  { href: "/dashboard/members", label: "Members", match: (p: string) => p.startsWith("/dashboard/members") },
  { href: "/dashboard/import", label: "Import & export", match: (p: string) => p.startsWith("/dashboard/import") },
  { href: "/dashboard/keys", label: "API keys", match: (p: string) => p.startsWith("/dashboard/keys") },
  { href: "/dashboard/webhooks", label: "Webhooks", match: (p: string) => p.startsWith("/dashboard/webhooks") },
  { href: "/dashboard/readers", label: "Readers", match: (p: string) => p.startsWith("/dashboard/readers") },
  { href: "/dashboard/usage", label: "Usage", match: (p: string) => p.startsWith("/dashboard/usage") },
  { href: "/dashboard/audit", label: "Audit log", match: (p: string) => p.startsWith("/dashboard/audit") },
  { href: "/dashboard/api", label: "API reference", match: (p: string) => p.startsWith("/dashboard/api") },
  { href: "/dashboard/account", label: "Account", match: (p: string) => p.startsWith("/dashboard/account") },
];

export function DashboardNav() {
  const pathname = usePathname() ?? "";
  return (
    // The sections wrap onto a second row rather than scroll out of sight, on a phone and at 1280 px
    // alike (thirteen do not fit one row): every one stays a click away (e2e/owner-experience.spec.ts).
    <nav aria-label="Dashboard" className="-mb-px flex flex-wrap gap-x-1">
      {LINKS.map(({ href, label, match }) => {
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
