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
import { BlogHistory } from "./blog-history";
import { SharePreview } from "./share-preview";
import { LoadError } from "./load-error";
import { PageHeader } from "./page-header";

interface LoadedBlog {
  blog: BlogView;
  /** The ETag it was read with, for the form's If-Match. */
  entityTag: string | null;
}

export function EditBlog({ id, handle, created }: { id: string; handle: string; created: boolean }) {
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
  const reload = async () => {
    await loaded.refetch();
    setFormVersion((n) => n + 1);
  };
  return (
    <>
      <PageHeader title={`Edit “${blog.title}”`} description={created ? "Blog created." : undefined} />
      <BlogForm
        key={`${blog.id}:${formVersion}`}
        blog={blog}
        entityTag={entityTag}
        handle={handle}
        onSaved={(saved, tag) => {
          queryClient.setQueryData<LoadedBlog>(queryKey, { blog: saved, entityTag: tag });
          void queryClient.invalidateQueries({ queryKey: trpc.blogs.revisions.list.queryKey({ blogId: id }) });
        }}
        onReload={reload}
      />
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <BlogHistory
          blog={blog}
          entityTag={entityTag}
          onRestored={(restored, tag) => {
            queryClient.setQueryData<LoadedBlog>(queryKey, { blog: restored, entityTag: tag });
            setFormVersion((n) => n + 1);
          }}
          onConflict={() => void reload()}
        />
        <SharePreview blogId={blog.id} />
      </div>
    </>
  );
}
