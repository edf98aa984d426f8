import type { Metadata } from "next";
import { AccountSettings } from "~/components/dashboard/account-settings";
import { PageHeader } from "~/components/dashboard/page-header";
import { requireSessionUser } from "~/app/session";
import { readPersonProfile } from "@blogmgr/server";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const user = await requireSessionUser();
  // The person's own name, handle and bio (docs/public-blog.md, Authors), not their publication's.
  const profile = await readPersonProfile(user.userId);
  return (
    <>
      <PageHeader title="Account" description="Your name, public handle, bio, email and password; your sessions; and deleting the account." />
      <AccountSettings user={{ ...user, ...profile }} />
    </>
  );
}
