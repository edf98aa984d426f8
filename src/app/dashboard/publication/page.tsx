import type { Metadata } from "next";
import { PageHeader } from "~/components/dashboard/page-header";
import { PublicationSettings } from "~/components/dashboard/publication-settings";
import { requireSessionUser } from "~/app/session";

export const metadata: Metadata = { title: "Publication" };

export default async function PublicationPage() {
  const user = await requireSessionUser();
  return (
    <>
      <PageHeader
        title="Publication"
        description="How every public page presents you: title, logo, accent colour, language, time zone, navigation, footer and custom domain. Readers see a change on their next visit."
      />
      <PublicationSettings ownerName={user.publication.ownerName} handle={user.publication.handle} />
    </>
  );
}
