"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge } from "~/components/ui/badge";
import { Card, CardTitle, EmptyState, Loading, Skeleton } from "~/components/ui/card";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { LocalTime } from "~/components/ui/local-time";
import { api } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { LoadError } from "./load-error";
import { KEYS_QUERY } from "./keys-client";
import { PageHeader } from "./page-header";
import { UsageChart } from "./usage-chart";

const statusTone = (status: number) => (status >= 500 ? "red" : status >= 400 ? "amber" : "green");

/** One key: its usage per day by outcome (last 30 days) and its latest requests from the request log. */
export function KeyActivityPanel({ id }: { id: string }) {
  const keys = useQuery(KEYS_QUERY);
  const activity = useQuery({ queryKey: trpc.keys.activity.queryKey({ id }), queryFn: () => api.keys.activity.query({ id }) });
  const key = keys.data?.find((k) => k.id === id);
  return (
    <>
      <PageHeader
        title={key ? `Key “${key.name}”` : "Key activity"}
        description={
          <>
            {key && <span className="font-mono">{key.maskedKey} · {key.status} · </span>}
            <Link href="/dashboard/keys" className="text-indigo-700 underline">
              All keys
            </Link>
          </>
        }
      />
      {activity.error ? (
        <LoadError what="the key's activity" error={activity.error} onRetry={() => void activity.refetch()} retrying={activity.isFetching} />
      ) : !activity.data ? (
        <Loading label="Loading the key's activity" className="space-y-4">
          <Skeleton className="h-64 w-full" />
          <Skeleton className="h-40 w-full" />
        </Loading>
      ) : (
        <div className="space-y-6">
          <Card>
            <CardTitle>
              Requests per day, {activity.data.usage.from} to {activity.data.usage.to}
            </CardTitle>
            <p className="mt-1 mb-4 text-sm text-slate-600">{activity.data.usage.totals.requests.toLocaleString("en")} requests in all.</p>
            <UsageChart daily={activity.data.usage.daily} />
          </Card>
          <section aria-labelledby="recent-heading" className="space-y-3">
            <h2 id="recent-heading" className="text-base font-semibold text-slate-900">
              Latest requests
            </h2>
            <p className="text-sm text-slate-600">Its last 100 requests, from your account&apos;s log of its latest 1,000.</p>
            {activity.data.recent.length === 0 ? (
              <EmptyState title="No requests logged">Requests made with this key appear here.</EmptyState>
            ) : (
              <Table label="Latest requests">
                <THead>
                  <tr>
                    <Th>Time</Th>
                    <Th>Request, id</Th>
                    <Th>Status</Th>
                  </tr>
                </THead>
                <TBody>
                  {activity.data.recent.map((request) => (
                    <Tr key={request.requestId}>
                      <Td className="text-slate-600">
                        <LocalTime iso={request.at} seconds />
                      </Td>
                      <Td>
                        <span className="block font-mono text-xs text-slate-900">
                          {request.method} {request.path}
                        </span>
                        {request.query && (
                          <span className="block font-mono text-xs break-all text-slate-600" data-testid="request-query">
                            ?{request.query}
                          </span>
                        )}
                        <span className="block font-mono text-xs break-all text-slate-500">{request.requestId}</span>
                      </Td>
                      <Td>
                        <Badge tone={statusTone(request.status)}>{request.status}</Badge>
                        {request.errorCode && <span className="block font-mono text-xs break-all text-slate-900">{request.errorCode}</span>}
                        <span className="block text-xs whitespace-nowrap text-slate-600 tabular-nums">{request.latencyMs} ms to answer</span>
                      </Td>
                    </Tr>
                  ))}
                </TBody>
              </Table>
            )}
          </section>
        </div>
      )}
    </>
  );
}
