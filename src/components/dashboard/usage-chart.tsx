import type { Analytics, UsageCounts } from "~/server/usage/analytics";

type Outcome = Exclude<keyof UsageCounts, "requests">;

export const OUTCOMES: { key: Outcome; label: string; swatch: string }[] = [
  { key: "succeeded", label: "Succeeded (2xx)", swatch: "bg-emerald-500" },
  { key: "notModified", label: "Not modified (304)", swatch: "bg-sky-400" },
  { key: "clientErrors", label: "Client errors (4xx)", swatch: "bg-amber-400" },
  { key: "rateLimited", label: "Rate limited (429)", swatch: "bg-violet-500" },
  { key: "serverErrors", label: "Server errors (5xx)", swatch: "bg-red-500" },
];

/**
 * Requests per day as bars stacked by outcome, in plain HTML and CSS: crisp at any width, from
 * a phone to a wide screen. Hovering a day shows its numbers.
 */
export function UsageChart({ daily }: { daily: Analytics["daily"] }) {
  const top = niceCeil(Math.max(1, ...daily.map((d) => d.requests)));
  const ticks = top >= 2 ? [top, top / 2, 0] : [top, 0];
  const total = daily.reduce((sum, d) => sum + d.requests, 0);
  const first = daily[0]?.date ?? "";
  const last = daily.at(-1)?.date ?? "";
  const middle = daily[Math.floor(daily.length / 2)]?.date ?? "";

  return (
    <figure>
      <div className="flex h-52 gap-2">
        <div className="flex w-10 flex-col justify-between text-right text-xs text-slate-500 tabular-nums" aria-hidden>
          {ticks.map((t) => (
            <span key={t} className="-my-2 leading-4">
              {t.toLocaleString("en")}
            </span>
          ))}
        </div>
        <div className="relative flex-1">
          {ticks.map((t) => (
            <div key={t} aria-hidden className="absolute inset-x-0 border-t border-slate-200" style={{ top: `${(1 - t / top) * 100}%` }} />
          ))}
          <div
            className="absolute inset-0 flex items-end gap-px sm:gap-0.5"
            role="img"
            aria-label={`Requests per day from ${first} to ${last}: ${total} in all`}
            data-testid="usage-chart"
          >
            {daily.map((day) => (
              <div
                key={day.date}
                data-date={day.date}
                data-requests={day.requests}
                title={`${day.date}: ${day.requests} requests (${OUTCOMES.map((o) => `${day[o.key]} ${o.label.toLowerCase()}`).join(", ")})`}
                className="flex h-full min-w-0 flex-1 flex-col-reverse hover:bg-slate-100"
              >
                {OUTCOMES.map((o) =>
                  day[o.key] ? (
                    <div key={o.key} className={`${o.swatch} mx-auto w-full max-w-6`} style={{ height: `${(day[o.key] / top) * 100}%` }} />
                  ) : null,
                )}
              </div>
            ))}
          </div>
        </div>
      </div>
      <div className="mt-1 ml-12 flex justify-between text-xs text-slate-500 tabular-nums" aria-hidden>
        <span>{first}</span>
        <span className="hidden sm:inline">{middle}</span>
        <span>{last}</span>
      </div>
      <figcaption className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
        {OUTCOMES.map((o) => (
          <span key={o.key} className="inline-flex items-center gap-1.5">
            <span aria-hidden className={`inline-block size-2.5 rounded-sm ${o.swatch}`} />
            {o.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** 1, 2, 4, 6, 8 × 10^n at or above `value`: round numbers whose half is whole from 2 up. */
function niceCeil(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 4, 6, 8, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}
