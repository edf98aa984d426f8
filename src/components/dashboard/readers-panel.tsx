"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Card, CardTitle, EmptyState, Skeleton } from "~/components/ui/card";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { api, fieldErrors } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { DailyChart } from "./daily-chart";
import { LoadError } from "./load-error";
import { RANGE_FIELDS, RangePicker, type Range } from "./range-picker";

const VIEWS_SERIES = [{ key: "views" as const, label: "Views", swatch: "bg-indigo-600" }];

/** Readers' views (docs/dashboard.md, Readers): the same data as GET /api/v1/views. */
export function ReadersPanel() {
  const [range, setRange] = useState<Range>({});
  const views = useQuery({ queryKey: trpc.views.get.queryKey(range), queryFn: () => api.views.get.query(range), staleTime: 0, retry: false });
  const rangeErrors = views.error ? fieldErrors(views.error, RANGE_FIELDS) : {};
  const data = views.data?.data;

  return (
    <div className="space-y-6">
      {views.error && rangeErrors.form && <LoadError what="your readers' views" error={views.error} onRetry={() => void views.refetch()} retrying={views.isFetching} />}
      <RangePicker range={range} errors={rangeErrors} onChange={setRange} />

      <Card>
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <CardTitle>{data ? `Views per day, ${data.from} to ${data.to}` : "Views per day"}</CardTitle>
          {data && (
            <p className="text-sm text-slate-600" data-testid="readers-total">
              {data.total.toLocaleString("en")} {data.total === 1 ? "view" : "views"}
            </p>
          )}
        </div>
        <div className="mt-4">
          {!data ? (
            <Skeleton className="h-[15.5rem] w-full" />
          ) : data.total === 0 ? (
            <EmptyState title="No views in this range">
              A view is counted each time a reader&apos;s browser opens one of your public pages: a post, your index, a tag page. Bots, feeds and previews
              are not counted.
            </EmptyState>
          ) : (
            <>
              <DailyChart daily={data.daily} total="views" noun="Views" series={VIEWS_SERIES} testId="readers-chart" />
              <details className="mt-4 text-sm">
                <summary className="cursor-pointer rounded text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-600">The views per day as a table</summary>
                <div className="mt-3">
                  <CountTable label="Views per day" heading="Day (UTC)" rows={data.daily.map((day) => ({ id: day.date, name: day.date, views: day.views }))} />
                </div>
              </details>
            </>
          )}
        </div>
      </Card>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <section className="space-y-3">
          <CardTitle>Top posts</CardTitle>
          {!data ? (
            <Skeleton className="h-24 w-full" />
          ) : data.blogs.length === 0 ? (
            <EmptyState title="No post was viewed in this range" />
          ) : (
            <CountTable
              label="Views by post"
              heading="Post"
              rows={data.blogs.map((blog) => ({
                id: blog.id,
                name: (
                  <Link href={`/dashboard/blogs/${blog.id}`} className="rounded font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600">
                    {blog.title || blog.blogSlug}
                  </Link>
                ),
                views: blog.views,
              }))}
            />
          )}
        </section>
        <section className="space-y-3">
          <CardTitle>Top referrers</CardTitle>
          {!data ? (
            <Skeleton className="h-24 w-full" />
          ) : data.referrers.length === 0 ? (
            <EmptyState title="No views in this range" />
          ) : (
            <CountTable
              label="Views by referrer"
              heading="Came from"
              rows={data.referrers.map((referrer) => ({
                id: referrer.host ?? "",
                name: referrer.host ?? <span className="text-slate-600">Direct, or your own pages</span>,
                views: referrer.views,
              }))}
            />
          )}
        </section>
      </div>
    </div>
  );
}

function CountTable({ label, heading, rows }: { label: string; heading: string; rows: { id: string; name: ReactNode; views: number }[] }) {
  return (
    <Table label={label}>
      <THead>
        <tr>
          <Th>{heading}</Th>
          <Th className="text-right">Views</Th>
        </tr>
      </THead>
      <TBody>
        {rows.map((row) => (
          <Tr key={row.id}>
            <Td className="break-all">{row.name}</Td>
            <Td className="text-right tabular-nums">{row.views.toLocaleString("en")}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}
