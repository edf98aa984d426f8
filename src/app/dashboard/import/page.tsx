import type { Metadata } from "next";
import { ImportExportPanel } from "~/components/dashboard/import-export-panel";
import { PageHeader } from "~/components/dashboard/page-header";

export const metadata: Metadata = { title: "Import & export" };

export default function ImportPage() {
  return (
    <>
      <PageHeader
        title="Import & export"
        description="Bring your posts, images and email list from WordPress, Ghost, Substack or Markdown files, and take everything you wrote here with you as one zip."
      />
      <ImportExportPanel />
    </>
  );
}
