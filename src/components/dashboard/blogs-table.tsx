"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { buttonClasses, Button } from "~/components/ui/button";
import { EmptyState, Skeleton } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Switch } from "~/components/ui/switch";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { formatDate } from "~/lib/format";
import { api, errorMessage } from "~/trpc/react";

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
        {toggleError || (list.error ? errorMessage(list.error) : "")}
      </p>

      {!data ? (
        <div className="space-y-2" aria-busy="true" aria-label="Loading blogs">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-12 w-full" />
          ))}
        </div>
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
        <Table label="Your blogs">
          <THead>
            <tr>
              <Th>Title</Th>
              <Th>Slug</Th>
              <Th>Public</Th>
              <Th>API access</Th>
              <Th>Created</Th>
              <Th>Updated</Th>
            </tr>
          </THead>
          <TBody>
            {data.blogs.map((blog) => (
              <Tr key={blog.id} data-testid={`blog-row-${blog.blogSlug}`}>
                <Td className="max-w-64">
                  <Link
                    href={`/dashboard/blogs/${blog.id}`}
                    className="block truncate font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
                  >
                    {blog.title}
                  </Link>
                </Td>
                <Td className="font-mono text-xs text-slate-600">{blog.blogSlug}</Td>
                <Td>
                  <Switch
                    label={`Public: ${blog.title}`}
                    checked={flagValue(blog, "isPublic")}
                    disabled={pending?.id === blog.id}
                    onCheckedChange={(isPublic) => toggle.mutate({ id: blog.id, isPublic })}
                  />
                </Td>
                <Td>
                  <Switch
                    label={`API access: ${blog.title}`}
                    checked={flagValue(blog, "allowApiAccess")}
                    disabled={pending?.id === blog.id}
                    onCheckedChange={(allowApiAccess) => toggle.mutate({ id: blog.id, allowApiAccess })}
                  />
                </Td>
                <Td className="whitespace-nowrap text-slate-600">{formatDate(blog.createdAt)}</Td>
                <Td className="whitespace-nowrap text-slate-600">{formatDate(blog.updatedAt)}</Td>
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
