import type { Metadata } from "next";
import { AccountSettings } from "~/components/dashboard/account-settings";
import { PageHeader } from "~/components/dashboard/page-header";
import { requireSessionUser } from "~/app/session";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const user = await requireSessionUser();
  return (
    <>
      <PageHeader title="Account" description="Your name, public handle, email and password; your sessions; and deleting the account." />
      <AccountSettings user={user} />
    </>
  );
}
