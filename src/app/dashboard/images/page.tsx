import type { Metadata } from "next";
import { ImagesPanel } from "~/components/dashboard/images-panel";
import { PageHeader } from "~/components/dashboard/page-header";

export const metadata: Metadata = { title: "Images" };

export default function ImagesPage() {
  return (
    <>
      <PageHeader
        title="Images"
        description="The images of your blogs' content and covers. Each is kept with smaller copies, so readers on phones load less; they count towards your storage."
      />
      <ImagesPanel />
    </>
  );
}
