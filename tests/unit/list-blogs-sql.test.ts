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
    const { text, values } = listBlogsSql({ apiAccessOnly: true, accountId, limit: 50, offset: 0, isPublic: false, fromDay: "2026-01-01", toDay: "2026-01-31" });
    expect(values).toEqual([accountId, false, "2026-01-01", "2026-01-31", 50]);
    expect(text).toContain(`"isPublic" = $2`);
    expect(text).toContain(`"day" >= $3::date AND "day" <= $4::date`);
    expect(text).toContain(`"createdAt" >= ($3::date)::timestamp AT TIME ZONE 'UTC'`);
    expect(text).toContain(`"createdAt" < ($4::date + 1)::timestamp AT TIME ZONE 'UTC'`);
    expect(listBlogsSql({ apiAccessOnly: true, accountId, limit: 10, offset: 0, isPublic: true }).text).not.toContain(`"day"`);
  });

  it("skips over ids only for deep page numbers, and reads after the keyset position for a cursor", () => {
    const deep = listBlogsSql({ apiAccessOnly: true, accountId, limit: 10, offset: 990 });
    expect(deep.values).toEqual([accountId, 10, 990]);
    expect(deep.text).toContain(`(SELECT "id" FROM "blog" WHERE "userId" = $1 AND "allowApiAccess" ORDER BY "createdAt" DESC, "id" DESC LIMIT $2 OFFSET $3) AS ids`);

    const after = { createdAt: new Date("2026-05-01T10:00:00.000Z"), id: "blog-9" };
    const keyset = listBlogsSql({ apiAccessOnly: true, accountId, limit: 10, offset: 0, after });
    expect(keyset.values).toEqual([accountId, "2026-05-01T10:00:00.000Z", "blog-9", 10]);
    expect(keyset.text).toContain(`("createdAt", "id") < ($2::timestamptz, $3)`);
    expect(keyset.text).not.toContain("OFFSET");
  });

  it("never puts a value into the text", () => {
    const { text } = listBlogsSql({ apiAccessOnly: true, accountId: "x'; DROP TABLE blog; --", limit: 10, offset: 20, fromDay: "2026-01-01" });
    expect(text).not.toContain("DROP");
    expect(text).not.toContain("2026-01-01");
  });
});
