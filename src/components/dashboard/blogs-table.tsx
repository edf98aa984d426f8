"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { buttonClasses, Button } from "~/components/ui/button";
import { EmptyState, Skeleton } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Switch } from "~/components/ui/switch";
import { Table, TBody, Th, THead, Tr } from "~/components/ui/table";
import { LocalTime } from "~/components/ui/local-time";
import { api, errorMessage } from "~/trpc/react";
import { LoadError } from "./load-error";

const PAGE_SIZE = 10;

type Flag = "isPublic" | "allowApiAccess";

export function BlogsTable() {
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState("");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [toggleError, setToggleError] = useState("");

  // Search as the owner types, once they pause.
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(searchText.trim());
      setPage(1);
    }, 250);
    return () => clearTimeout(timer);
  }, [searchText]);

  const input = { q: search || undefined, page, limit: PAGE_SIZE };
  const list = useQuery({
    queryKey: ["blogs.list", input],
    queryFn: async () => (await api.blogs.list.query(input)).data,
    placeholderData: keepPreviousData,
  });

  const toggle = useMutation({
    mutationFn: ({ id, ...flags }: { id: string } & Partial<Record<Flag, boolean>>) => api.blogs.update.mutate({ blogId: id, ...flags }),
    onMutate: () => setToggleError(""),
    onError: (error) => setToggleError(errorMessage(error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["blogs.list"] }),
  });

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
          <div className="space-y-2" aria-busy="true" aria-label="Loading blogs">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-12 w-full" />
            ))}
          </div>
        )
      ) : data.blogs.length === 0 ? (
        search ? (
          <EmptyState title={`No blog matches “${search}”`}>Try another word, or clear the search.</EmptyState>
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
                        onCheckedChange={(checked) => toggle.mutate({ id: blog.id, [flag]: checked })}
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
                  <td key={field} className="min-w-0 p-0 text-xs text-slate-600 md:px-3 md:py-2 md:text-sm md:whitespace-nowrap">
                    <span className="md:hidden">{name} </span>
                    <LocalTime iso={blog[field]} />
                  </td>
                ))}
              </Tr>
            ))}
          </TBody>
        </Table>
      )}

      {data && data.pagination.totalPages > 1 && (
        <nav className="flex items-center justify-between gap-3" aria-label="Pages">
          <Button variant="secondary" size="sm" disabled={!data.pagination.hasPrev} onClick={() => setPage((p) => p - 1)}>
            Previous
          </Button>
          <span className="text-sm text-slate-600">
            Page {data.pagination.page} of {data.pagination.totalPages}
          </span>
          <Button variant="secondary" size="sm" disabled={!data.pagination.hasNext} onClick={() => setPage((p) => p + 1)}>
            Next
          </Button>
        </nav>
      )}
    </div>
  );
}
