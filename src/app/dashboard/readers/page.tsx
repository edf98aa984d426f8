import type { Metadata } from "next";
import { PageHeader } from "~/components/dashboard/page-header";
import { ReadersPanel } from "~/components/dashboard/readers-panel";

export const metadata: Metadata = { title: "Readers" };

export default function ReadersPage() {
  return (
    <>
      <PageHeader
        title="Readers"
        description="Views of your public pages by readers' browsers, per UTC day, without cookies or scripts; the same data is at GET /api/v1/views."
      />
      <ReadersPanel />
    </>
  );
}
