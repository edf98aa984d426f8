/** One stacked part of a day's bar. */
export interface ChartSeries<Key extends string> {
  key: Key;
  label: string;
  swatch: string;
}

type Day<Total extends string, Key extends string> = { date: string } & Record<Total | Key, number>;

/**
 * Counts per day as bars (stacked by series), in plain HTML and CSS: crisp at any width, from a
 * phone to a wide screen. Hovering a day shows its numbers; the chart's label gives the range and
 * the sum, and each bar carries `data-date` and `data-<total>` for tests.
 */
export function DailyChart<Total extends string, Key extends string>({
  daily,
  total,
  noun,
  series,
  testId,
}: {
  daily: Day<Total, Key>[];
  /** The field holding a day's total, e.g. "requests". */
  total: Total;
  /** What is counted, plural and capitalized, e.g. "Requests". */
  noun: string;
  series: ChartSeries<Key>[];
  testId: string;
}) {
  const top = niceCeil(Math.max(1, ...daily.map((d) => d[total])));
  const ticks = top >= 2 ? [top, top / 2, 0] : [top, 0];
  const sum = daily.reduce((all, d) => all + d[total], 0);
  const first = daily[0]?.date ?? "";
  const last = daily.at(-1)?.date ?? "";
  const middle = daily[Math.floor(daily.length / 2)]?.date ?? "";
  const described = (day: Day<Total, Key>) =>
    series.length > 1 ? ` (${series.map((s) => `${day[s.key]} ${s.label.toLowerCase()}`).join(", ")})` : "";

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
            aria-label={`${noun} per day from ${first} to ${last}: ${sum} in all`}
            data-testid={testId}
          >
            {daily.map((day) => (
              <div
                key={day.date}
                data-date={day.date}
                {...{ [`data-${total}`]: day[total] }}
                title={`${day.date}: ${day[total]} ${noun.toLowerCase()}${described(day)}`}
                className="flex h-full min-w-0 flex-1 flex-col-reverse hover:bg-slate-100"
              >
                {series.map((s) =>
                  day[s.key] ? <div key={s.key} className={`${s.swatch} mx-auto w-full max-w-6`} style={{ height: `${(day[s.key] / top) * 100}%` }} /> : null,
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
      {series.length > 1 && (
        <figcaption className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
          {series.map((s) => (
            <span key={s.key} className="inline-flex items-center gap-1.5">
              <span aria-hidden className={`inline-block size-2.5 rounded-sm ${s.swatch}`} />
              {s.label}
            </span>
          ))}
        </figcaption>
      )}
    </figure>
  );
}

/** 1, 2, 4, 6, 8 × 10^n at or above `value`: round numbers whose half is whole from 2 up. */
function niceCeil(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 4, 6, 8, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}
