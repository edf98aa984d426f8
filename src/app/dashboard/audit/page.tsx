import type { Metadata } from "next";
import { AuditPanel } from "~/components/dashboard/audit-panel";
import { PageHeader } from "~/components/dashboard/page-header";

export const metadata: Metadata = { title: "Audit log" };

export default function AuditPage() {
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change to your publication: who made it (a member, an API key, the CLI or a job), when, from where, and which fields it changed."
      />
      <AuditPanel />
    </>
  );
}
