"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { buttonClasses } from "~/components/ui/button";
import { EmptyState, Skeleton } from "~/components/ui/card";
import { api, errorMessage } from "~/trpc/react";
import { BlogForm } from "./blog-form";
import { PageHeader } from "./page-header";

export function EditBlog({ id, handle, created }: { id: string; handle: string; created: boolean }) {
  const blog = useQuery({
    queryKey: ["blogs.get", id],
    queryFn: async () => (await api.blogs.get.query({ blogId: id })).data.blog,
    staleTime: 0,
  });

  if (blog.error) {
    return (
      <EmptyState title="This blog can't be shown">
        <p>{errorMessage(blog.error)}</p>
        <Link href="/dashboard" className={buttonClasses("secondary", "sm", "mt-3")}>
          Back to blogs
        </Link>
      </EmptyState>
    );
  }
  if (!blog.data) {
    return (
      <div aria-busy="true" aria-label="Loading the blog" className="space-y-4">
        <Skeleton className="h-9 w-64" />
        <Skeleton className="h-48 w-full" />
        <Skeleton className="h-80 w-full" />
      </div>
    );
  }
  return (
    <>
      <PageHeader title={`Edit “${blog.data.title}”`} description={created ? "Blog created." : undefined} />
      <BlogForm key={blog.data.id} blog={blog.data} handle={handle} />
    </>
  );
}
