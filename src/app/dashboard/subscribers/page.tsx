import type { Metadata } from "next";
import { PageHeader } from "~/components/dashboard/page-header";
import { SubscribersPanel } from "~/components/dashboard/subscribers-panel";

export const metadata: Metadata = { title: "Subscribers" };

export default function SubscribersPage() {
  return (
    <>
      <PageHeader
        title="Subscribers"
        description="Readers who get your posts by email. They subscribe with the form on your publication's pages and confirm by email; you can also add, import and export addresses."
      />
      <SubscribersPanel />
    </>
  );
}
