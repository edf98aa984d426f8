import { describe, expect, it } from "vitest";
import { listBlogsSql } from "~/server/blogs/list-blogs-sql";

const accountId = "account-1";

describe("the list statement (docs/api.md, listing rules)", () => {
  it("lists the account's blogs with API access, newest first (ties by id), with the exact total, in one statement", () => {
    const { text, values } = listBlogsSql({ apiAccessOnly: true, accountId, limit: 10, offset: 0 });
    expect(values).toEqual([accountId, 10]);
    expect(text).toContain(`FROM "blog_day_count" WHERE "userId" = $1)`);
    expect(text).toContain(`FROM "blog" AS b WHERE "userId" = $1 AND "allowApiAccess" ORDER BY "createdAt" DESC, "id" DESC LIMIT $2`);
    expect(text).not.toContain("OFFSET");
  });

  it("writes only the conditions asked for, as parameters, whole UTC days inclusive", () => {
    const { text, values } = listBlogsSql({ apiAccessOnly: true, accountId, limit: 50, offset: 0, public: false, from: new Date("2026-01-01"), to: new Date("2026-01-31") });
    expect(values).toEqual([accountId, false, "2026-01-01", "2026-01-31", 50]);
    expect(text).toContain(`"isPublic" = $2`);
    expect(text).toContain(`"day" >= $3::date AND "day" <= $4::date`);
    expect(text).toContain(`"createdAt" >= ($3::date)::timestamp AT TIME ZONE 'UTC'`);
    expect(text).toContain(`"createdAt" < ($4::date + 1)::timestamp AT TIME ZONE 'UTC'`);
    expect(listBlogsSql({ apiAccessOnly: true, accountId, limit: 10, offset: 0, public: true }).text).not.toContain(`"day"`);
  });

  it("skips over ids only for deep page numbers, and reads after the keyset position for a cursor", () => {
    const deep = listBlogsSql({ apiAccessOnly: true, accountId, limit: 10, offset: 990 });
    expect(deep.values).toEqual([accountId, 10, 990]);
    expect(deep.text).toContain(`(SELECT "id" FROM "blog" WHERE "userId" = $1 AND "allowApiAccess" ORDER BY "createdAt" DESC, "id" DESC LIMIT $2 OFFSET $3) AS ids`);

    const after = { key: "2026-05-01T10:00:00.000Z", id: "blog-9" };
    const keyset = listBlogsSql({ apiAccessOnly: true, accountId, limit: 10, offset: 0, after });
    expect(keyset.values).toEqual([accountId, 10, "blog-9", "2026-05-01T10:00:00.000Z"]);
    expect(keyset.text).toContain(`("createdAt", "id") < ($4::timestamptz, $3)`);
    expect(keyset.text).not.toContain("OFFSET");
  });

  it("orders by the sort asked, ties by id the same way, read from the index forwards or backwards", () => {
    const byTitle = listBlogsSql({ apiAccessOnly: true, accountId, limit: 10, offset: 0, sort: { column: "title", descending: false } });
    expect(byTitle.text).toContain(`ORDER BY "title" ASC, "id" ASC LIMIT $2`);
    const after = listBlogsSql({ apiAccessOnly: true, accountId, limit: 10, offset: 0, sort: { column: "title", descending: true }, after: { key: "M", id: "b" } });
    expect(after.text).toContain(`("title", "id") < ($4, $3)`);
  });

  it("reads a nullable sort column past its nulls as a second range of the index", () => {
    const publishedAt = { column: "publishedAt" as const, descending: false };
    const pastValue = listBlogsSql({ apiAccessOnly: true, accountId, limit: 5, offset: 0, sort: publishedAt, after: { key: "2026-05-01T10:00:00.000Z", id: "b" } });
    expect(pastValue.text).toContain(`("publishedAt", "id") > ($4::timestamptz, $3)`);
    expect(pastValue.text).toContain(`UNION ALL`);
    expect(pastValue.text).toContain(`"publishedAt" IS NULL ORDER BY`);
    const pastNullDescending = listBlogsSql({ apiAccessOnly: true, accountId, limit: 5, offset: 0, sort: { ...publishedAt, descending: true }, after: { key: null, id: "b" } });
    expect(pastNullDescending.text).toContain(`"publishedAt" IS NULL AND "id" < $3`);
    expect(pastNullDescending.text).toContain(`"publishedAt" IS NOT NULL ORDER BY`);
  });

  it("filters by status and tag, counting a status from the per-day counters", () => {
    const { text, values } = listBlogsSql({ apiAccessOnly: true, accountId, limit: 10, offset: 0, public: false, status: "scheduled", tag: "next-js" });
    expect(values).toEqual([accountId, false, "scheduled", "next-js", 10]);
    expect(text).toContain(`"status" = $3::"BlogStatus" AND "tagSlugs" @> ARRAY[$4]::text[]`);
    // A tag filter has no counter: the matching blogs are counted.
    expect(text).toContain(`SELECT count(*)::int AS "total" FROM "blog"`);
    const counted = listBlogsSql({ apiAccessOnly: true, accountId, limit: 10, offset: 0, public: false, status: "draft" }).text;
    expect(counted).toContain(`FROM "blog_day_count" WHERE "userId" = $1 AND "status" <> 'published' AND "status" = $3::"BlogStatus"`);
  });

  it("never puts a value into the text", () => {
    const { text } = listBlogsSql({ apiAccessOnly: true, accountId: "x'; DROP TABLE blog; --", limit: 10, offset: 20, from: new Date("2026-01-01") });
    expect(text).not.toContain("DROP");
    expect(text).not.toContain("2026-01-01");
  });
});
