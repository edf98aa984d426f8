"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { Badge } from "~/components/ui/badge";
import { InReviewBadge, useDraftsInReview } from "./review-state";
import { ConfirmDialog } from "~/components/ui/dialog";
import { Toast, type ToastMessage } from "~/components/ui/toast";
import { buttonClasses, Button } from "~/components/ui/button";
import { EmptyState, Loading, Skeleton } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Pagination } from "~/components/ui/pagination";
import { Switch } from "~/components/ui/switch";
import { Table, TBody, Th, THead, Tr } from "~/components/ui/table";
import { LocalTime } from "~/components/ui/local-time";
import type { BlogView } from "~/server/blogs/blog-view";
import { BLOG_SORTS, DEFAULT_BLOG_SORT_NAME, type BlogSortName } from "~/shared/blog-sort";
import { BLOG_STATUSES, type BlogStatus } from "~/shared/blog-status";
import { api, errorMessage } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { LoadError } from "./load-error";

const PAGE_SIZE = 10;

type Flag = "isPublic" | "allowApiAccess";
type Change = { id: string; isPublic?: boolean; allowApiAccess?: boolean; publishAt?: string | null };

/** A publishing change waiting for the owner's confirmation, in the words the panel shows. */
interface PendingConfirmation {
  blog: BlogView;
  change: Change;
  title: string;
  sentence: string;
  confirmLabel: string;
}

/** The change that puts a blog's status back as it was (a schedule included). */
const restoring = (blog: BlogView): Change =>
  blog.isPublic ? { id: blog.id, isPublic: true } : { id: blog.id, isPublic: false, publishAt: blog.publishAt };

/** What the toast says once `change` is made to `blog`. */
function doneText(blog: BlogView, change: Change): string {
  if (change.isPublic === true) return `“${blog.title}” is published.`;
  if (change.isPublic === false && !blog.publishAt) return `“${blog.title}” is unpublished.`;
  return `The schedule of “${blog.title}” is cancelled.`;
}

const STATUS_LABELS: Record<BlogStatus, string> = { draft: "Draft", scheduled: "Scheduled", published: "Published" };
const STATUS_TONES = { draft: "neutral", scheduled: "amber", published: "green" } as const;
const SORT_LABELS: Record<BlogSortName, string> = {
  "-createdAt": "Newest first",
  createdAt: "Oldest first",
  "-updatedAt": "Recently updated",
  updatedAt: "Least recently updated",
  "-publishedAt": "Recently published (unpublished first)",
  publishedAt: "First published (unpublished last)",
  title: "Title A–Z",
  "-title": "Title Z–A",
};

/**
 * The list's status filter and sort, read from the address once and written back to it on each
 * change, so a reload or a shared link keeps them. The component's state is the truth: two quick
 * changes never build on an address not yet updated.
 */
function useListView() {
  const router = useRouter();
  const pathname = usePathname() ?? "/dashboard";
  const params = useSearchParams();
  const [view, setView] = useState(() => ({
    status: BLOG_STATUSES.find((s) => s === params?.get("status")),
    sort: BLOG_SORTS.find((s) => s === params?.get("sort")) ?? DEFAULT_BLOG_SORT_NAME,
  }));
  const change = (next: Partial<typeof view>) => {
    const merged = { ...view, ...next };
    setView(merged);
    const query = new URLSearchParams();
    if (merged.status) query.set("status", merged.status);
    if (merged.sort !== DEFAULT_BLOG_SORT_NAME) query.set("sort", merged.sort);
    router.replace(query.size > 0 ? `${pathname}?${query}` : pathname, { scroll: false });
  };
  return { ...view, change };
}

/**
 * The owner's blogs: search, status filter, sort, and quick switches. Publishing and unpublishing
 * from here ask first in a small panel; after it, and after a schedule is cancelled, a toast offers
 * Undo for a few seconds, which puts the status back as it was.
 */
export function BlogsTable({ handle }: { handle: string }) {
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState("");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [toggleError, setToggleError] = useState("");
  const [confirming, setConfirming] = useState<PendingConfirmation | null>(null);
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const view = useListView();
  const inReview = useDraftsInReview();

  // Search as the owner types, once they pause.
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(searchText.trim());
      setPage(1);
    }, 250);
    return () => clearTimeout(timer);
  }, [searchText]);

  const input = { q: search || undefined, page, limit: PAGE_SIZE, status: view.status, sort: view.sort };
  const list = useQuery({
    queryKey: trpc.blogs.list.queryKey(input),
    queryFn: async () => (await api.blogs.list.query(input)).data,
    placeholderData: keepPreviousData,
  });

  const toggle = useMutation({
    mutationFn: ({ id, ...changes }: Change) => api.blogs.update.mutate({ blogId: id, ...changes }),
    onMutate: () => setToggleError(""),
    onError: (error) => setToggleError(errorMessage(error)),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: trpc.blogs.review.list.queryKey() });
      return queryClient.invalidateQueries({ queryKey: trpc.blogs.list.queryKey() });
    },
  });

  /** Makes a publishing change, then offers to undo it. */
  const changeStatus = (blog: BlogView, change: Change) =>
    toggle.mutate(change, {
      onSuccess: () => {
        setConfirming(null);
        setToast({ id: Date.now(), text: doneText(blog, change), onUndo: () => toggle.mutate(restoring(blog)) });
      },
      onError: () => setConfirming(null),
    });

  /** The Public switch: asks first, saying what will happen. */
  const confirmPublic = (blog: BlogView, isPublic: boolean) => {
    const path = `/${handle}/${blog.blogSlug}`;
    setConfirming(
      isPublic
        ? {
            blog,
            change: { id: blog.id, isPublic: true },
            title: `Publish “${blog.title}”?`,
            sentence: `It will be public at ${path} now${blog.publishAt ? ", instead of at its scheduled time" : ""}.`,
            confirmLabel: "Publish now",
          }
        : {
            blog,
            change: { id: blog.id, isPublic: false },
            title: `Unpublish “${blog.title}”?`,
            sentence: `The public page ${path} will answer 404 and the post leaves your feeds; it goes back to being a draft.`,
            confirmLabel: "Unpublish",
          },
    );
  };

  const pending = toggle.isPending ? toggle.variables : undefined;
  const flagValue = (blog: { id: string } & Record<Flag, boolean>, flag: Flag) =>
    pending?.id === blog.id && pending[flag] !== undefined ? pending[flag] : blog[flag];

  const data = list.data;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor="blog-search" className="sr-only">
          Search blogs
        </label>
        <Input
          id="blog-search"
          type="search"
          placeholder="Search by title or slug"
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          className="max-w-xs"
        />
        <span className="flex items-center gap-2 text-sm text-slate-700">
          <label htmlFor="blog-status">Status</label>
          <select
            id="blog-status"
            value={view.status ?? ""}
            onChange={(event) => {
              view.change({ status: BLOG_STATUSES.find((status) => status === event.target.value) });
              setPage(1);
            }}
            className="h-10 rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <option value="">All</option>
            {BLOG_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </span>
        <span className="flex items-center gap-2 text-sm text-slate-700">
          <label htmlFor="blog-sort">Sort</label>
          <select
            id="blog-sort"
            value={view.sort}
            onChange={(event) => {
              view.change({ sort: BLOG_SORTS.find((sort) => sort === event.target.value) ?? DEFAULT_BLOG_SORT_NAME });
              setPage(1);
            }}
            className="h-10 max-w-56 rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            {BLOG_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {SORT_LABELS[sort]}
              </option>
            ))}
          </select>
        </span>
        <span className="text-sm text-slate-500" aria-live="polite">
          {data ? `${data.pagination.total} blog${data.pagination.total === 1 ? "" : "s"}` : ""}
        </span>
      </div>
      <p role="alert" className="min-h-5 text-sm text-red-600">
        {toggleError}
      </p>

      {list.error && <LoadError what="your blogs" error={list.error} onRetry={() => void list.refetch()} retrying={list.isFetching} />}
      {!data ? (
        // Skeletons while loading, never beside a failure.
        !list.error && (
          <Loading label="Loading blogs" className="space-y-2">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-12 w-full" />
            ))}
          </Loading>
        )
      ) : data.blogs.length === 0 ? (
        search || view.status ? (
          <EmptyState title={search ? `No blog matches “${search}”` : `No ${STATUS_LABELS[view.status!].toLowerCase()} blogs`}>
            Try another word or status, or clear the search.
          </EmptyState>
        ) : (
          <EmptyState title="No blogs yet">
            <Link href="/dashboard/blogs/new" className={buttonClasses("primary", "sm", "mt-2")}>
              Write your first blog
            </Link>
          </EmptyState>
        )
      ) : (
        // A table from md up; below, each row stacks into a card whose two switches are always in view.
        <Table label="Your blogs" className="block md:table">
          <THead className="hidden md:table-header-group">
            <tr>
              <Th>Title</Th>
              <Th>Status</Th>
              <Th>Slug</Th>
              <Th>Public</Th>
              <Th>API access</Th>
              <Th>Created</Th>
              <Th>Updated</Th>
            </tr>
          </THead>
          <TBody className="block md:table-row-group">
            {data.blogs.map((blog) => (
              <Tr key={blog.id} data-testid={`blog-row-${blog.blogSlug}`} className="grid grid-cols-2 gap-x-4 gap-y-2 p-4 md:table-row md:p-0">
                <td className="col-span-2 min-w-0 p-0 md:px-3 md:py-2">
                  <Link
                    href={`/dashboard/blogs/${blog.id}`}
                    title={blog.title}
                    className="block truncate font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600 md:max-w-64"
                  >
                    {blog.title}
                  </Link>
                  {blog.tags.length > 0 && (
                    <ul aria-label={`Tags of ${blog.title}`} className="mt-1 flex flex-wrap gap-1">
                      {blog.tags.map((tag) => (
                        <li key={tag}>
                          <Badge tone="indigo">{tag}</Badge>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className="col-span-2 min-w-0 p-0 text-sm md:px-3 md:py-2">
                  <span className="flex flex-wrap items-center gap-2">
                    <Badge tone={STATUS_TONES[blog.status]}>{STATUS_LABELS[blog.status]}</Badge>
                    {blog.status === "draft" && inReview.data?.has(blog.id) && <InReviewBadge />}
                    {blog.publishAt && (
                      <>
                        <span className="text-xs text-slate-600">
                          for <LocalTime iso={blog.publishAt} />
                        </span>
                        <Button
                          variant="secondary"
                          size="sm"
                          loading={pending?.id === blog.id && pending.publishAt === null}
                          onClick={() => changeStatus(blog, { id: blog.id, publishAt: null })}
                          aria-label={`Cancel schedule: ${blog.title}`}
                        >
                          Cancel schedule
                        </Button>
                      </>
                    )}
                  </span>
                </td>
                <td className="col-span-2 min-w-0 p-0 font-mono text-xs text-slate-600 md:px-3 md:py-2">
                  <span title={blog.blogSlug} className="block truncate md:max-w-48">
                    {blog.blogSlug}
                  </span>
                </td>
                {(
                  [
                    ["isPublic", "Public"],
                    ["allowApiAccess", "API access"],
                  ] as const
                ).map(([flag, name]) => (
                  <td key={flag} className="p-0 md:px-3 md:py-2">
                    <span className="flex items-center gap-2">
                      <Switch
                        label={`${name}: ${blog.title}`}
                        checked={flagValue(blog, flag)}
                        busy={pending?.id === blog.id}
                        onCheckedChange={(checked) => (flag === "isPublic" ? confirmPublic(blog, checked) : toggle.mutate({ id: blog.id, [flag]: checked }))}
                      />
                      <span aria-hidden className="text-sm text-slate-700 md:hidden">
                        {name}
                      </span>
                    </span>
                  </td>
                ))}
                {(
                  [
                    ["createdAt", "Created"],
                    ["updatedAt", "Updated"],
                  ] as const
                ).map(([field, name]) => (
                  // Dates wrap when the row needs the room (a scheduled blog's Cancel schedule), the time under the date: the table never scrolls in its card.
                  <td key={field} className="min-w-0 p-0 text-xs text-slate-600 md:min-w-[7.5rem] md:px-3 md:py-2 md:text-sm">
                    <span className="md:hidden">{name} </span>
                    <LocalTime iso={blog[field]} />
                  </td>
                ))}
              </Tr>
            ))}
          </TBody>
        </Table>
      )}

      {data && <Pagination pagination={data.pagination} onStep={(step) => setPage((p) => p + step)} />}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={confirming?.title ?? ""}
        description={<p>{confirming?.sentence}</p>}
        confirmLabel={confirming?.confirmLabel ?? ""}
        confirmVariant={confirming?.change.isPublic ? "primary" : "danger"}
        busy={toggle.isPending}
        onConfirm={() => confirming && changeStatus(confirming.blog, confirming.change)}
      />
      <Toast message={toast} onDismiss={() => setToast(null)} />
    </div>
  );
}
