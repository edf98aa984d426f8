import type { Metadata } from "next";
import { BlogForm } from "~/components/dashboard/blog-form";
import { PageHeader } from "~/components/dashboard/page-header";
import { requireSessionUser } from "~/app/session";

export const metadata: Metadata = { title: "New blog" };

export default async function NewBlogPage() {
  const user = await requireSessionUser();
  return (
    <>
      <PageHeader title="New blog" />
      <BlogForm handle={user.handle} />
    </>
  );
}
