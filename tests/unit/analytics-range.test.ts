import { describe, expect, it } from "vitest";
import { DomainError } from "~/server/common/domain-error";
import { daysInRange, resolveAnalyticsRange } from "~/server/usage/analytics";

const day = (date: string) => new Date(`${date}T00:00:00Z`);
const iso = (range: { from: Date; to: Date }) => ({ from: range.from.toISOString().slice(0, 10), to: range.to.toISOString().slice(0, 10) });
/** Late in the UTC day, to show the range is whole days whatever the time. */
const now = new Date("2026-03-10T23:59:59.999Z");

describe("analytics date range", () => {
  it("defaults to the 30 days ending today (UTC)", () => {
    expect(iso(resolveAnalyticsRange({}, now))).toEqual({ from: "2026-02-09", to: "2026-03-10" });
    expect(daysInRange(resolveAnalyticsRange({}, now))).toBe(30);
  });

  it("with only `to`, takes the 30 days ending then", () => {
    expect(iso(resolveAnalyticsRange({ to: day("2024-03-01") }, now))).toEqual({ from: "2024-02-01", to: "2024-03-01" });
  });

  it("with only `from`, runs through today", () => {
    expect(iso(resolveAnalyticsRange({ from: day("2026-01-01") }, now))).toEqual({ from: "2026-01-01", to: "2026-03-10" });
    expect(iso(resolveAnalyticsRange({ from: day("2026-03-10") }, now))).toEqual({ from: "2026-03-10", to: "2026-03-10" });
  });

  it("keeps explicit bounds, a future `to` included", () => {
    expect(iso(resolveAnalyticsRange({ from: day("2026-03-01"), to: day("2026-04-01") }, now))).toEqual({ from: "2026-03-01", to: "2026-04-01" });
  });

  it("accepts up to 366 days, across a leap day", () => {
    const range = resolveAnalyticsRange({ from: day("2024-01-01"), to: day("2024-12-31") }, now);
    expect(daysInRange(range)).toBe(366);
  });

  it.each([
    ["from after to", { from: day("2026-03-02"), to: day("2026-03-01") }, "from (2026-03-02) must not be after to (2026-03-01)"],
    ["from after today, without to", { from: day("2026-03-11") }, "from (2026-03-11) must not be after to (2026-03-10)"],
    ["367 days", { from: day("2025-03-08"), to: day("2026-03-09") }, "from and to must span at most 366 days; 2025-03-08 to 2026-03-09 spans 367 days"],
    ["from more than 366 days ago, without to", { from: day("2025-03-09") }, "from and to must span at most 366 days; 2025-03-09 to 2026-03-10 spans 367 days"],
  ])("refuses %s", (_, requested, details) => {
    let error: unknown;
    try {
      resolveAnalyticsRange(requested, now);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: "INVALID_PARAMETER", message: "Invalid parameter: from", details });
  });
});
