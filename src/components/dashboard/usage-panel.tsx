"use client";

import { useQuery } from "@tanstack/react-query";
import { Card, CardTitle, EmptyState, Skeleton } from "~/components/ui/card";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { formatDateTime } from "~/lib/format";
import { PLAN_NAMES } from "~/shared/plans";
import { api, errorMessage } from "~/trpc/react";
import { OUTCOMES, UsageChart } from "./usage-chart";

export function UsagePanel() {
  const rate = useQuery({ queryKey: ["usage.rateLimit"], queryFn: () => api.usage.rateLimit.query(), staleTime: 0 });
  const analytics = useQuery({ queryKey: ["usage.analytics"], queryFn: () => api.usage.analytics.query(), staleTime: 0 });
  const error = rate.error ?? analytics.error;

  return (
    <div className="space-y-6">
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {errorMessage(error)}
        </p>
      )}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Stat label="Plan" testId="usage-plan" value={rate.data && PLAN_NAMES[rate.data.plan]} sub={rate.data && `${rate.data.hourlyLimit.toLocaleString("en")} requests an hour`} />
        <Stat
          label="This hour"
          testId="usage-window"
          value={rate.data && `${rate.data.used.toLocaleString("en")} / ${rate.data.hourlyLimit.toLocaleString("en")}`}
          sub={rate.data && `${rate.data.remaining.toLocaleString("en")} remaining`}
        >
          {rate.data && (
            <div className="mt-3 h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden>
              <div className="h-full rounded-full bg-indigo-600" style={{ width: `${(rate.data.used / rate.data.hourlyLimit) * 100}%` }} />
            </div>
          )}
        </Stat>
        <Stat label="Window resets" testId="usage-reset" value={rate.data && formatDateTime(rate.data.resetAt)} sub="Windows are whole UTC clock hours" />
      </div>

      <Card>
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <CardTitle>Requests per day, last 30 days</CardTitle>
          {analytics.data && (
            <p className="text-sm text-slate-600" data-testid="usage-totals">
              {analytics.data.totals.requests.toLocaleString("en")} requests ·{" "}
              {OUTCOMES.map((o) => `${analytics.data.totals[o.key]} ${o.label.split(" (")[0]!.toLowerCase()}`).join(" · ")}
            </p>
          )}
        </div>
        <div className="mt-4">{analytics.data ? <UsageChart daily={analytics.data.daily} /> : <Skeleton className="h-[17.5rem] w-full" />}</div>
      </Card>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <section className="space-y-3">
          <CardTitle>By key</CardTitle>
          {!analytics.data ? (
            <Skeleton className="h-24 w-full" />
          ) : analytics.data.byKey.length === 0 ? (
            <EmptyState title="No requests in the last 30 days" />
          ) : (
            <Table label="Requests by key">
              <THead>
                <tr>
                  <Th>Key</Th>
                  <Th className="text-right">Requests</Th>
                </tr>
              </THead>
              <TBody>
                {analytics.data.byKey.map((row) => (
                  <Tr key={row.keyId}>
                    <Td>{row.name}</Td>
                    <Td className="text-right tabular-nums">{row.requests.toLocaleString("en")}</Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </section>
        <section className="space-y-3">
          <CardTitle>By endpoint</CardTitle>
          {!analytics.data ? (
            <Skeleton className="h-24 w-full" />
          ) : analytics.data.byEndpoint.length === 0 ? (
            <EmptyState title="No requests in the last 30 days" />
          ) : (
            <Table label="Requests by endpoint">
              <THead>
                <tr>
                  <Th>Endpoint</Th>
                  <Th className="text-right">Requests</Th>
                </tr>
              </THead>
              <TBody>
                {analytics.data.byEndpoint.map((row) => (
                  <Tr key={`${row.method} ${row.path}`}>
                    <Td className="font-mono text-xs">
                      {row.method} /api/v1{row.path}
                    </Td>
                    <Td className="text-right tabular-nums">{row.requests.toLocaleString("en")}</Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </section>
      </div>
    </div>
  );
}

function Stat({
  label,
  value,
  sub,
  testId,
  children,
}: {
  label: string;
  value: string | undefined;
  sub: string | undefined;
  testId: string;
  children?: React.ReactNode;
}) {
  return (
    <Card>
      <p className="text-sm text-slate-600">{label}</p>
      {value === undefined ? (
        <>
          <Skeleton className="mt-1 h-8 w-28" />
          <Skeleton className="mt-2 h-4 w-36" />
        </>
      ) : (
        <div data-testid={testId}>
          <p className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{value}</p>
          <p className="mt-1 text-sm text-slate-500">{sub}</p>
        </div>
      )}
      {children}
    </Card>
  );
}
