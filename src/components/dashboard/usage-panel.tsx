"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Card, CardTitle, EmptyState, Skeleton } from "~/components/ui/card";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { LocalTime } from "~/components/ui/local-time";
import { PLAN_HOURLY_LIMITS, PLAN_NAMES, PLANS, type Plan } from "~/shared/plans";
import { api, fieldErrors } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { LoadError } from "./load-error";
import { OUTCOMES, UsageChart } from "./usage-chart";
import { RANGE_FIELDS, RangePicker, type Range } from "./range-picker";

/** From this share of the hourly budget on, the page warns. */
const BUDGET_WARNING_SHARE = 0.8;

export function UsagePanel() {
  const [range, setRange] = useState<Range>({});
  const rate = useQuery({ queryKey: trpc.usage.rateLimit.queryKey(), queryFn: () => api.usage.rateLimit.query(), staleTime: 0 });
  const analytics = useQuery({ queryKey: trpc.usage.analytics.queryKey(range), queryFn: () => api.usage.analytics.query(range), staleTime: 0, retry: false });
  const rangeErrors = analytics.error ? fieldErrors(analytics.error, RANGE_FIELDS) : {};
  const error = rate.error ?? (analytics.error && rangeErrors.form ? analytics.error : null);

  return (
    <div className="space-y-6">
      {error && (
        <LoadError
          what="your usage"
          error={error}
          onRetry={() => void Promise.all([rate.refetch(), analytics.refetch()])}
          retrying={rate.isFetching || analytics.isFetching}
        />
      )}
      {rate.data && <BudgetWarning {...rate.data} />}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Stat label="Plan" testId="usage-plan" value={rate.data && PLAN_NAMES[rate.data.plan]} sub={rate.data && `${rate.data.hourlyLimit.toLocaleString("en")} requests an hour`}>
          {rate.data && <NextPlan plan={rate.data.plan} />}
        </Stat>
        <Stat
          label="This hour"
          testId="usage-window"
          value={rate.data && `${rate.data.used.toLocaleString("en")} / ${rate.data.hourlyLimit.toLocaleString("en")}`}
          sub={rate.data && `${rate.data.remaining.toLocaleString("en")} remaining`}
        >
          {rate.data && (
            <>
              <div className="mt-3 h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden>
                <div className="h-full rounded-full bg-indigo-600" style={{ width: `${Math.min(1, rate.data.used / rate.data.hourlyLimit) * 100}%` }} />
              </div>
              <p className="mt-2 text-xs text-slate-500">
                The budget counts requests that reach it: those refused before it (a missing permission, 403) and 304 answers appear in the
                request counts below but not here.
              </p>
            </>
          )}
        </Stat>
        <Stat
          label="Window resets"
          testId="usage-reset"
          value={rate.data && `in ${minutesUntil(rate.data.resetAt)} min`}
          sub={
            rate.data && (
              <>
                <LocalTime iso={rate.data.resetAt} /> · windows are whole UTC clock hours
              </>
            )
          }
        />
      </div>

      <RangePicker range={range} errors={rangeErrors} onChange={setRange} />

      <Card>
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <CardTitle>{analytics.data ? `Requests per day, ${analytics.data.from} to ${analytics.data.to}` : "Requests per day"}</CardTitle>
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
            <EmptyState title="No requests in this range" />
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
            <EmptyState title="No requests in this range" />
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
  sub: React.ReactNode;
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

function minutesUntil(iso: string): number {
  return Math.max(0, Math.ceil((Date.parse(iso) - Date.now()) / 60_000));
}

/** From 80% of the hourly budget, and whenever requests were refused with 429 today. */
function BudgetWarning({ used, hourlyLimit, resetAt, rateLimitedToday }: { used: number; hourlyLimit: number; resetAt: string; rateLimitedToday: number }) {
  const nearLimit = used >= hourlyLimit * BUDGET_WARNING_SHARE;
  if (!nearLimit && rateLimitedToday === 0) return null;
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="usage-warning">
      {nearLimit && (
        <p className="font-medium">
          {Math.round((used / hourlyLimit) * 100)}% of this hour&apos;s budget is used ({used.toLocaleString("en")} of {hourlyLimit.toLocaleString("en")}); it resets in{" "}
          {minutesUntil(resetAt)} min.
        </p>
      )}
      {rateLimitedToday > 0 && (
        <p className={nearLimit ? "mt-1" : "font-medium"}>
          {rateLimitedToday.toLocaleString("en")} {rateLimitedToday === 1 ? "request was" : "requests were"} refused with 429 (rate limit exceeded) today (UTC).
        </p>
      )}
    </div>
  );
}

function NextPlan({ plan }: { plan: Plan }) {
  const next = PLANS[PLANS.indexOf(plan) + 1];
  return (
    <p className="mt-2 text-xs text-slate-500" data-testid="usage-next-plan">
      {next
        ? `${PLAN_NAMES[next]} would give ${PLAN_HOURLY_LIMITS[next].toLocaleString("en")} requests an hour.`
        : "The largest plan: ask us if you need more."}
    </p>
  );
}
