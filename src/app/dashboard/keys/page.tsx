import type { Metadata } from "next";
import { requireSessionUser } from "~/app/session";
import { KeysPanel } from "~/components/dashboard/keys-panel";
import { PageHeader } from "~/components/dashboard/page-header";
import { EmptyState } from "~/components/ui/card";
import { keyPermissionsOf } from "~/shared/roles";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage() {
  // A member gives keys only the permissions their role has (docs/teams.md, Keys).
  const { publication } = await requireSessionUser();
  const permissions = [...keyPermissionsOf(publication.role)];
  return (
    <>
      <PageHeader
        title="API keys"
        description="Programs authenticate to the API with a key, sent in the x-api-key header. Each key carries only the permissions you give it."
      />
      {permissions.length > 0 ? (
        <KeysPanel permissions={permissions} />
      ) : (
        <EmptyState title="Contributors make no API keys">A key acts for the whole publication: ask an editor or an administrator for one.</EmptyState>
      )}
    </>
  );
}
