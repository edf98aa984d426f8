import type { Metadata } from "next";
import { ImageStorage } from "~/components/dashboard/image-storage";
import { PageHeader } from "~/components/dashboard/page-header";
import { UsagePanel } from "~/components/dashboard/usage-panel";

export const metadata: Metadata = { title: "Usage" };

export default function UsagePage() {
  return (
    <>
      <PageHeader
        title="Usage"
        description="Requests made with your API keys, and the storage your images take. All keys share your plan's hourly limit; the same data is at GET /api/v1/analytics."
      />
      <UsagePanel />
      <div className="mt-6">
        <ImageStorage />
      </div>
    </>
  );
}
