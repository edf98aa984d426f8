import { describe, expect, it } from "vitest";
import { call, createTestAccount, createTestKey, db, type ApiResponse } from "../support/api";
import { expectError, expectSuccess, rateLimitHeaders } from "./expect";

/** Today's UTC date, YYYY-MM-DD, computed independently of the module under test. */
const utcToday = () => new Date().toISOString().slice(0, 10);
const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;

const COUNTERS = ["requests", "succeeded", "notModified", "clientErrors", "serverErrors", "rateLimited"] as const;
type Counts = Record<(typeof COUNTERS)[number], number>;
type DailyEntry = Counts & { date: string };
const zeros = (date: string): DailyEntry => ({ date, requests: 0, succeeded: 0, notModified: 0, clientErrors: 0, serverErrors: 0, rateLimited: 0 });

const analytics = (key: string, query = "") => call(`/analytics${query}`, { key });

async function keyId(accountId: string, name: string): Promise<string> {
  const key = await db().apiKey.findFirstOrThrow({ where: { userId: accountId, name }, select: { id: true } });
  return key.id;
}

/** The analytics payload, with the invariants every answer must keep. */
function expectAnalytics(response: ApiResponse) {
  const data = expectSuccess(response);
  expect(Object.keys(data).sort()).toEqual(["byEndpoint", "byKey", "daily", "from", "to", "totals"]);
  const daily = data.daily as DailyEntry[];
  // One entry per day from `from` to `to`, ascending and consecutive.
  expect(daily.map((d) => d.date)).toEqual(Array.from({ length: daysBetween(data.from, data.to) }, (_, i) => shift(data.from, i)));
  for (const entry of [data.totals, ...daily] as Counts[]) {
    expect(entry.requests).toBe(entry.succeeded + entry.notModified + entry.clientErrors + entry.serverErrors + entry.rateLimited);
  }
  for (const counter of COUNTERS) expect(daily.reduce((sum, d) => sum + d[counter], 0)).toBe(data.totals[counter]);
  const sumOf = (rows: { requests: number }[]) => rows.reduce((sum, r) => sum + r.requests, 0);
  expect(sumOf(data.byKey)).toBe(data.totals.requests);
  expect(sumOf(data.byEndpoint)).toBe(data.totals.requests);
  return data as {
    from: string;
    to: string;
    totals: Counts;
    daily: DailyEntry[];
    byKey: { keyId: string; name: string; requests: number }[];
    byEndpoint: { method: string; path: string; requests: number }[];
  };
}

/** Requests of this test were made between `firstDay` and `lastDay` (one day unless midnight UTC passed). */
function expectUsageOnlyBetween(daily: DailyEntry[], firstDay: string, lastDay: string, totals: Counts) {
  for (const entry of daily) {
    if (entry.date < firstDay || entry.date > lastDay) expect(entry).toEqual(zeros(entry.date));
  }
  if (firstDay === lastDay) expect(daily.find((d) => d.date === firstDay)).toEqual({ date: firstDay, ...totals });
}

/** The route template of GET one blog by id, when the API has it (e.g. /blogs/{blogId}). */
async function getBlogByIdTemplate(): Promise<string | undefined> {
  const document = (await call("/openapi.json")).json as unknown as { paths: Record<string, Record<string, unknown>> };
  return Object.keys(document.paths).find((path) => /^\/blogs\/\{[^}/]+\}$/.test(path) && document.paths[path]!.get);
}

describe("GET /api/v1/analytics", () => {
  it("counts every outcome of the account's requests per day, key and endpoint", { timeout: 90_000 }, async () => {
    const account = await createTestAccount("free"); // its own "test key" makes no request
    const primary = await createTestKey(account.id, { name: "Primary" });
    const analyst = await createTestKey(account.id, { name: "Analytics only", permissions: ["read:analytics"] });
    const byIdTemplate = await getBlogByIdTemplate();
    const firstDay = utcToday();

    let consumed = 0;
    for (let i = 0; i < 5; i++, consumed++) expectSuccess(await call("/blogs", { key: primary }));
    for (let i = 0; i < 2; i++, consumed++) expectError(await call("/blogs?limit=0", { key: primary }), 400, "INVALID_PARAMETER");
    // 403s are recorded, but do not consume the hourly budget.
    for (let i = 0; i < 3; i++) expectError(await call("/blogs", { key: analyst }), 403, "INSUFFICIENT_PERMISSIONS");
    expectError(await analytics(analyst, "?from=2025-02-30"), 400, "INVALID_PARAMETER");
    consumed++;
    if (byIdTemplate) {
      expectError(await call("/blogs/no-such-blog", { key: primary }), 404, "RESOURCE_NOT_FOUND");
      consumed++;
    }
    const filled = 100 - consumed;
    for (let i = 0; i < filled; i++) {
      const response = await call("/blogs", { key: primary });
      expectSuccess(response);
      if (i === filled - 1) expect(rateLimitHeaders(response).remaining).toBe(0);
    }
    for (let i = 0; i < 2; i++) expectError(await call("/blogs", { key: primary }), 429, "RATE_LIMIT_EXCEEDED");
    expectError(await analytics(analyst), 429, "RATE_LIMIT_EXCEEDED");
    // The account upgrades, so it can read its analytics within the same hour.
    await db().organization.update({ where: { id: account.id }, data: { plan: "pro" } });

    const range = `?from=${shift(firstDay, -2)}&to=${shift(utcToday(), 1)}`;
    const data = expectAnalytics(await analytics(analyst, range));
    const lastDay = utcToday();
    const notFound = byIdTemplate ? 1 : 0;
    const primaryRequests = 5 + 2 + notFound + filled + 2;
    const totals = {
      requests: primaryRequests + 5,
      succeeded: 5 + filled,
      notModified: 0,
      clientErrors: 2 + 3 + 1 + notFound,
      serverErrors: 0,
      rateLimited: 3,
    };
    expect(data.totals).toEqual(totals);
    expect(data.daily).toHaveLength(daysBetween(shift(firstDay, -2), shift(lastDay, 1)));
    expectUsageOnlyBetween(data.daily, firstDay, lastDay, totals);
    expect(data.byKey).toEqual([
      { keyId: await keyId(account.id, "Primary"), name: "Primary", requests: primaryRequests },
      { keyId: await keyId(account.id, "Analytics only"), name: "Analytics only", requests: 5 },
    ]);
    expect(data.byEndpoint).toEqual([
      { method: "GET", path: "/blogs", requests: 5 + 2 + 3 + filled + 2 },
      { method: "GET", path: "/analytics", requests: 2 },
      ...(byIdTemplate ? [{ method: "GET", path: byIdTemplate, requests: 1 }] : []),
    ]);

    // Asked again at once, the previous analytics request (a success) is already counted.
    const again = expectAnalytics(await analytics(analyst, range));
    expect(again.totals).toEqual({ ...totals, requests: totals.requests + 1, succeeded: totals.succeeded + 1 });
    expect(again.byEndpoint).toContainEqual({ method: "GET", path: "/analytics", requests: 3 });
  });

  it("sees the requests answered just before, even a burst of concurrent ones", async () => {
    const account = await createTestAccount();
    const firstDay = utcToday();
    const burst = await Promise.all(Array.from({ length: 25 }, (_, i) => call(i % 5 === 0 ? "/blogs?page=0" : "/blogs", { key: account.key })));
    expect(burst.filter((r) => r.status === 200)).toHaveLength(20);
    const data = expectAnalytics(await analytics(account.key));
    expect(data.totals).toEqual({ requests: 25, succeeded: 20, notModified: 0, clientErrors: 5, serverErrors: 0, rateLimited: 0 });
    expectUsageOnlyBetween(data.daily, firstDay, utcToday(), data.totals);
  });

  it("sums the stored days of the range, both bounds included, zeros for days without requests", async () => {
    const account = await createTestAccount();
    await createTestKey(account.id, { name: "Alpha" });
    await createTestKey(account.id, { name: "Beta" });
    const [alpha, beta] = [await keyId(account.id, "Alpha"), await keyId(account.id, "Beta")];
    const row = (day: string, keyId: string, method: string, path: string, counts: Partial<Counts>) => ({
      userId: account.id,
      day: new Date(`${day}T00:00:00Z`),
      keyId,
      method,
      path,
      succeeded: counts.succeeded ?? 0,
      notModified: counts.notModified ?? 0,
      clientErrors: counts.clientErrors ?? 0,
      serverErrors: counts.serverErrors ?? 0,
      rateLimited: counts.rateLimited ?? 0,
      requests: (counts.succeeded ?? 0) + (counts.notModified ?? 0) + (counts.clientErrors ?? 0) + (counts.serverErrors ?? 0) + (counts.rateLimited ?? 0),
    });
    await db().usageDaily.createMany({
      data: [
        row("2025-06-01", alpha, "GET", "/blogs", { succeeded: 7 }), // the day before the range
        row("2025-06-02", alpha, "GET", "/blogs", { succeeded: 8, clientErrors: 1, serverErrors: 1 }),
        row("2025-06-02", beta, "POST", "/blogs", { succeeded: 2, rateLimited: 1 }),
        row("2025-06-04", beta, "GET", "/blogs", { succeeded: 5 }),
        row("2025-06-04", beta, "DELETE", "/blogs/{blogId}", { clientErrors: 1 }),
        row("2025-06-05", alpha, "GET", "/blogs", { succeeded: 100 }), // the day after
      ],
    });

    const data = expectAnalytics(await analytics(account.key, "?from=2025-06-02&to=2025-06-04"));
    expect(data.from).toBe("2025-06-02");
    expect(data.to).toBe("2025-06-04");
    expect(data.daily).toEqual([
      { date: "2025-06-02", requests: 13, succeeded: 10, notModified: 0, clientErrors: 1, serverErrors: 1, rateLimited: 1 },
      zeros("2025-06-03"),
      { date: "2025-06-04", requests: 6, succeeded: 5, notModified: 0, clientErrors: 1, serverErrors: 0, rateLimited: 0 },
    ]);
    expect(data.totals).toEqual({ requests: 19, succeeded: 15, notModified: 0, clientErrors: 2, serverErrors: 1, rateLimited: 1 });
    expect(data.byKey).toEqual([
      { keyId: alpha, name: "Alpha", requests: 10 },
      { keyId: beta, name: "Beta", requests: 9 },
    ]);
    expect(data.byEndpoint).toEqual([
      { method: "GET", path: "/blogs", requests: 15 },
      { method: "POST", path: "/blogs", requests: 3 },
      { method: "DELETE", path: "/blogs/{blogId}", requests: 1 },
    ]);

    const quiet = expectAnalytics(await analytics(account.key, "?from=2025-05-01&to=2025-05-31"));
    expect(quiet.daily).toHaveLength(31);
    expect(quiet.totals).toEqual({ requests: 0, succeeded: 0, notModified: 0, clientErrors: 0, serverErrors: 0, rateLimited: 0 });
    expect(quiet.byKey).toEqual([]);
    expect(quiet.byEndpoint).toEqual([]);
  });

  it("shows only the caller's account", async () => {
    const [mine, theirs] = await Promise.all([createTestAccount(), createTestAccount()]);
    const firstDay = utcToday();
    for (let i = 0; i < 3; i++) expectSuccess(await call("/blogs", { key: mine.key }));
    for (let i = 0; i < 4; i++) expectSuccess(await call("/blogs", { key: theirs.key }));
    expectError(await call("/blogs?limit=99", { key: theirs.key }), 400, "INVALID_PARAMETER");
    const [myKey, theirKey] = [await keyId(mine.id, "test key"), await keyId(theirs.id, "test key")];

    const my = expectAnalytics(await analytics(mine.key));
    expect(my.totals).toEqual({ requests: 3, succeeded: 3, notModified: 0, clientErrors: 0, serverErrors: 0, rateLimited: 0 });
    expect(my.byKey).toEqual([{ keyId: myKey, name: "test key", requests: 3 }]);
    expect(my.byEndpoint).toEqual([{ method: "GET", path: "/blogs", requests: 3 }]);
    expectUsageOnlyBetween(my.daily, firstDay, utcToday(), my.totals);

    const their = expectAnalytics(await analytics(theirs.key));
    expect(their.totals).toEqual({ requests: 5, succeeded: 4, notModified: 0, clientErrors: 1, serverErrors: 0, rateLimited: 0 });
    expect(their.byKey).toEqual([{ keyId: theirKey, name: "test key", requests: 5 }]);
  });

  it("needs the read:analytics permission", async () => {
    const account = await createTestAccount();
    const key = await createTestKey(account.id, { name: "Reader", permissions: ["read:blogs", "write:blogs", "delete:blogs"] });
    const error = expectError(await analytics(key), 403, "INSUFFICIENT_PERMISSIONS");
    expect(error.message).toBe("This API key lacks the read:analytics permission");
    expectError(await call("/analytics"), 401, "MISSING_API_KEY");
  });

  describe("range", () => {
    it("defaults to the last 30 days ending today (UTC)", async () => {
      const account = await createTestAccount();
      const before = utcToday();
      const data = expectAnalytics(await analytics(account.key));
      const today = [before, utcToday()].includes(data.to) ? data.to : before;
      expect(data.to).toBe(today);
      expect(data.from).toBe(shift(today, -29));
      expect(data.daily).toHaveLength(30);
      expect(data.daily.at(-1)!.date).toBe(today);
    });

    it("with only `to`, covers the 30 days ending then; with only `from`, from then through today", async () => {
      const account = await createTestAccount();
      const onlyTo = expectAnalytics(await analytics(account.key, "?to=2025-03-31"));
      expect([onlyTo.from, onlyTo.to, onlyTo.daily.length]).toEqual(["2025-03-02", "2025-03-31", 30]);

      const before = utcToday();
      const onlyFrom = expectAnalytics(await analytics(account.key, `?from=${shift(before, -5)}`));
      expect(onlyFrom.from).toBe(shift(before, -5));
      expect([before, utcToday()]).toContain(onlyFrom.to);
      expect(onlyFrom.daily).toHaveLength(daysBetween(onlyFrom.from, onlyFrom.to));
    });

    it("accepts a single day and up to 366 days", async () => {
      const account = await createTestAccount();
      const oneDay = expectAnalytics(await analytics(account.key, "?from=2024-02-29&to=2024-02-29"));
      expect(oneDay.daily).toEqual([zeros("2024-02-29")]);
      const year = expectAnalytics(await analytics(account.key, "?from=2024-01-01&to=2024-12-31"));
      expect(year.daily).toHaveLength(366);
      expect(year.daily.at(-1)!.date).toBe("2024-12-31");
    });

    it.each([
      ["an impossible date", "?from=2025-02-30", "from"],
      ["a month 13", "?to=2025-13-01", "to"],
      ["a date without dashes", "?from=20250101", "from"],
      ["a date and time", "?to=2025-01-01T00:00:00Z", "to"],
      ["a one-digit month", "?from=2025-1-01", "from"],
      ["an empty value", "?to=", "to"],
      ["from after to", "?from=2025-03-02&to=2025-03-01", "from"],
      ["more than 366 days", "?from=2024-01-01&to=2025-01-01", "from"],
      ["from in the future without to", `?from=${shift(utcToday(), 2)}`, "from"],
      ["from more than 366 days ago without to", `?from=${shift(utcToday(), -366)}`, "from"],
    ])("400 INVALID_PARAMETER for %s", async (_, query, parameter) => {
      const account = await createTestAccount();
      const error = expectError(await analytics(account.key, query), 400, "INVALID_PARAMETER");
      expect(error.message).toBe(`Invalid parameter: ${parameter}`);
      expect(error.details).toContain(parameter);
    });

    it("names the 366-day limit when the range is too long", async () => {
      const account = await createTestAccount();
      const error = expectError(await analytics(account.key, "?from=2024-01-01&to=2025-01-01"), 400, "INVALID_PARAMETER");
      expect(error.details).toBe("from and to must span at most 366 days; 2024-01-01 to 2025-01-01 spans 367 days");
    });
  });
});
