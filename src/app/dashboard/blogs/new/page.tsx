import type { Metadata } from "next";
import { BlogForm } from "~/components/dashboard/blog-form";
import { requireSessionUser } from "~/app/session";

export const metadata: Metadata = { title: "New blog" };

export default async function NewBlogPage() {
  const user = await requireSessionUser();
  return <BlogForm handle={user.publication.handle} />;
}
