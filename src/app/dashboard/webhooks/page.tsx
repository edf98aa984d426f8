import type { Metadata } from "next";
import { PageHeader } from "~/components/dashboard/page-header";
import { WebhooksPanel } from "~/components/dashboard/webhooks-panel";

export const metadata: Metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Your endpoints receive a signed POST for every change to your blogs and keys, retried for a day and a half until they answer 2xx."
      />
      <WebhooksPanel />
    </>
  );
}
