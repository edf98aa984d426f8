import type { Analytics, UsageCounts } from "~/server/usage/analytics";
import { DailyChart, type ChartSeries } from "./daily-chart";

type Outcome = Exclude<keyof UsageCounts, "requests">;

export const OUTCOMES: ChartSeries<Outcome>[] = [
  { key: "succeeded", label: "Succeeded (2xx)", swatch: "bg-emerald-500" },
  { key: "notModified", label: "Not modified (304)", swatch: "bg-sky-400" },
  { key: "clientErrors", label: "Client errors (4xx)", swatch: "bg-amber-400" },
  { key: "rateLimited", label: "Rate limited (429)", swatch: "bg-violet-500" },
  { key: "serverErrors", label: "Server errors (5xx)", swatch: "bg-red-500" },
];

/** Requests per day, stacked by outcome. */
export function UsageChart({ daily }: { daily: Analytics["daily"] }) {
  return <DailyChart daily={daily} total="requests" noun="Requests" series={OUTCOMES} testId="usage-chart" />;
}
