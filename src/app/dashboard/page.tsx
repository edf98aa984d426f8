import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { BlogsTable } from "~/components/dashboard/blogs-table";
import { ExpiringKeysNotice } from "~/components/dashboard/expiring-keys-notice";
import { PageHeader } from "~/components/dashboard/page-header";
import { buttonClasses } from "~/components/ui/button";
import { requireSessionUser } from "~/app/session";
import { roleAtLeast } from "~/shared/roles";

export const metadata: Metadata = { title: "Blogs" };

export default async function BlogsPage() {
  const user = await requireSessionUser();
  return (
    <>
      <PageHeader
        title="Blogs"
        description="Public blogs are readable by anyone at their address; only blogs with API access are visible to your API keys. Publishing and unpublishing ask first, and can be undone for a few seconds after."
        actions={
          <Link href="/dashboard/blogs/new" className={buttonClasses("primary")}>
            New blog
          </Link>
        }
      />
      {/* Keys are an author's and up (docs/teams.md): a contributor has none to be told about. */}
      {roleAtLeast(user.publication.role, "author") && <ExpiringKeysNotice />}
      {/* The list reads its filter and sort from the address. */}
      <Suspense>
        <BlogsTable handle={user.publication.handle} />
      </Suspense>
    </>
  );
}
