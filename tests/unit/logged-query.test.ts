import { describe, expect, it } from "vitest";
import { LOGGED_QUERY_MAX_LENGTH, loggedQuery } from "~/server/usage/record-request";

const KEY = `bm_${"a1".repeat(32)}`;

describe("loggedQuery", () => {
  it("is null without a query string", () => {
    expect(loggedQuery("")).toBeNull();
    expect(loggedQuery("?")).toBeNull();
  });

  it("keeps the query as sent, api_key's value redacted however its name is written", () => {
    expect(loggedQuery(`?limit=5&api_key=${KEY}&q=a+b`)).toBe("limit=5&api_key=REDACTED&q=a+b");
    expect(loggedQuery(`?api%5Fkey=${KEY}`)).toBe("api%5Fkey=REDACTED");
    expect(loggedQuery(`?API_KEY=x`)).toBe("API_KEY=REDACTED");
  });

  it("redacts a key sent in any other parameter too", () => {
    expect(loggedQuery(`?q=${KEY}`)).toBe("q=REDACTED");
  });

  it("cuts a long query to its bound", () => {
    const cut = loggedQuery(`?q=${"x".repeat(2_000)}`)!;
    expect(cut).toHaveLength(LOGGED_QUERY_MAX_LENGTH);
    expect(cut.endsWith("…")).toBe(true);
  });
});
