import type { Metadata } from "next";
import { KeysPanel } from "~/components/dashboard/keys-panel";
import { PageHeader } from "~/components/dashboard/page-header";

export const metadata: Metadata = { title: "API keys" };

export default function KeysPage() {
  return (
    <>
      <PageHeader
        title="API keys"
        description="Programs authenticate to the API with a key, sent in the x-api-key header. Each key carries only the permissions you give it."
      />
      <KeysPanel />
    </>
  );
}
