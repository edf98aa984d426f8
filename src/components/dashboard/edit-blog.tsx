"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { buttonClasses } from "~/components/ui/button";
import { EmptyState, Loading, Skeleton } from "~/components/ui/card";
import type { BlogView } from "~/server/blogs/blog-view";
import { api, errorMessage } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { TRPCClientError } from "@trpc/client";
import { BlogForm } from "./blog-form";
import { LoadError } from "./load-error";

interface LoadedBlog {
  blog: BlogView;
  /** The ETag it was read with, for the form's If-Match. */
  entityTag: string | null;
}

/** The editor of a stored blog: loads it with its ETag, and again after a conflict when the owner chooses to. */
export function EditBlog({ id, handle }: { id: string; handle: string }) {
  const queryClient = useQueryClient();
  const queryKey = trpc.blogs.get.queryKey({ blogId: id });
  // Bumped on "Reload" after a conflict: the form starts afresh from the blog as stored.
  const [formVersion, setFormVersion] = useState(0);
  const loaded = useQuery({
    queryKey,
    queryFn: async (): Promise<LoadedBlog> => {
      let entityTag: string | null = null;
      const answer = await api.blogs.get.query({ blogId: id }, { context: { onEntityTag: (tag: string | null) => (entityTag = tag) } });
      return { blog: answer.data.blog, entityTag };
    },
    staleTime: 0,
  });
  const title = loaded.data?.blog.title;

  useEffect(() => {
    if (title !== undefined) document.title = `Edit “${title}” · Blog Manager`;
  }, [title]);

  if (loaded.error && !loaded.data) {
    if (loaded.error instanceof TRPCClientError && loaded.error.data?.code === "NOT_FOUND") {
      return (
        <EmptyState title="This blog can't be shown">
          <p>{errorMessage(loaded.error)}</p>
          <Link href="/dashboard" className={buttonClasses("secondary", "sm", "mt-3")}>
            Back to blogs
          </Link>
        </EmptyState>
      );
    }
    return <LoadError what="the blog" error={loaded.error} onRetry={() => void loaded.refetch()} retrying={loaded.isFetching} />;
  }
  if (!loaded.data) {
    return (
      <Loading label="Loading the blog" className="space-y-4">
        <Skeleton className="h-9 w-64" />
        <Skeleton className="h-48 w-full" />
        <Skeleton className="h-80 w-full" />
      </Loading>
    );
  }
  const { blog, entityTag } = loaded.data;
  return (
    <BlogForm
      key={`${blog.id}:${formVersion}`}
      blog={blog}
      entityTag={entityTag}
      handle={handle}
      onSaved={(saved, tag) => queryClient.setQueryData<LoadedBlog>(queryKey, { blog: saved, entityTag: tag })}
      onReload={async () => {
        await loaded.refetch();
        setFormVersion((n) => n + 1);
      }}
    />
  );
}
