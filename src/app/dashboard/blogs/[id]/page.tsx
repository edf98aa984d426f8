import type { Metadata } from "next";
import { EditBlog } from "~/components/dashboard/edit-blog";
import { requireSessionUser } from "~/app/session";

export const metadata: Metadata = { title: "Edit blog" };

export default async function EditBlogPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requireSessionUser();
  return <EditBlog id={id} handle={user.publication.handle} />;
}
