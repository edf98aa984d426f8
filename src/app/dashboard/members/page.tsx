import type { Metadata } from "next";
import { MembersPanel } from "~/components/dashboard/members-panel";
import { PageHeader } from "~/components/dashboard/page-header";

export const metadata: Metadata = { title: "Members" };

export default function MembersPage() {
  return (
    <>
      <PageHeader title="Members" description="The people who work on this publication, their roles, and the invitations waiting for an answer." />
      <MembersPanel />
    </>
  );
}
