import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestAccount, db, seedBlogs, type TestAccount } from "../support/api";
import { BLOG_FIELDS, expectError, expectSuccess } from "./expect";

const day = (date: string, hour = 12) => new Date(`${date}T${String(hour).padStart(2, "0")}:00:00Z`);

let owner: TestAccount;
let other: TestAccount;
let empty: TestAccount;
/** Ids of the owner's API-visible blogs, newest first. */
let visibleIds: string[];

beforeAll(async () => {
  [owner, other, empty] = await Promise.all([createTestAccount(), createTestAccount(), createTestAccount()]);
  // 23 API-visible blogs: 8 public, over 2025-03-01..2025-03-23 (one a day), plus two that
  // share a creation instant (ordered by id), plus blogs the API must never show.
  const visible = Array.from({ length: 23 }, (_, i) => ({
    title: `Visible ${i}`,
    isPublic: i % 3 === 0,
    createdAt: day(`2025-03-${String(i + 1).padStart(2, "0")}`),
  }));
  const ids = await seedBlogs(owner.id, [
    ...visible,
    { title: "Hidden public", isPublic: true, allowApiAccess: false, createdAt: day("2025-03-10") },
    { title: "Hidden private", allowApiAccess: false },
  ]);
  await seedBlogs(other.id, [{ title: "Someone else's", isPublic: true, createdAt: day("2025-03-10") }]);
  const byNewest = visible.map((blog, i) => ({ id: ids[i]!, at: blog.createdAt.getTime() }));
  byNewest.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
  visibleIds = byNewest.map((b) => b.id);
});

const list = (query = "", key = owner.key) => call(`/blogs${query}`, { key });

describe("GET /api/v1/blogs", () => {
  it("returns the caller's API-visible blogs, newest first, with the documented defaults", async () => {
    const data = expectSuccess(await list());
    expect(Object.keys(data).sort()).toEqual(["blogs", "pagination"]);
    expect(data.pagination).toEqual({
      page: 1, limit: 10, total: 23, totalPages: 3, hasNext: true, hasPrev: false, nextCursor: expect.any(String),
    });
    expect(data.blogs.map((b: { id: string }) => b.id)).toEqual(visibleIds.slice(0, 10));
  });

  it("shows each blog with exactly the documented fields, strings never null", async () => {
    const [blog] = expectSuccess(await list("?limit=1")).blogs;
    expect(Object.keys(blog).sort()).toEqual([...BLOG_FIELDS].sort());
    expect(blog).toMatchObject({ title: "Visible 22", allowApiAccess: true, description: "", content: "", seoTitle: "", seoDescription: "", tags: [], coverImage: null, emailSubscribers: false, emailedAt: null });
    expect(new Date(blog.createdAt).toISOString()).toBe(blog.createdAt);
  });

  it("never shows blogs without API access nor other accounts' blogs", async () => {
    const all = expectSuccess(await list("?limit=50")).blogs.map((b: { title: string }) => b.title);
    expect(all).toHaveLength(23);
    expect(all).not.toContain("Hidden public");
    expect(all).not.toContain("Someone else's");
    const others = expectSuccess(await list("", other.key)).blogs.map((b: { title: string }) => b.title);
    expect(others).toEqual(["Someone else's"]);
  });

  it("orders blogs created at the same instant by id, descending", async () => {
    const tied = await createTestAccount();
    const ids = await seedBlogs(tied.id, [0, 1, 2].map(() => ({ createdAt: day("2025-01-01") })));
    const listed = expectSuccess(await list("", tied.key)).blogs.map((b: { id: string }) => b.id);
    expect(listed).toEqual([...ids].sort().reverse());
  });

  it("walks every page with hasNext, each blog once", async () => {
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const data = expectSuccess(await list(`?limit=7&page=${page}`));
      seen.push(...data.blogs.map((b: { id: string }) => b.id));
      expect(data.pagination.hasPrev).toBe(page > 1);
      if (!data.pagination.hasNext) {
        expect(page).toBe(data.pagination.totalPages);
        break;
      }
    }
    expect(seen).toEqual(visibleIds);
  });

  it("walks every page with nextCursor, each page equal to the same page by number", async () => {
    for (const query of ["?limit=7", "?limit=4&public=false", "?limit=2&from=2025-03-05&to=2025-03-12"]) {
      const seen: string[] = [];
      let data = expectSuccess(await list(query));
      for (;;) {
        const byNumber = expectSuccess(await list(`${query}&page=${data.pagination.page}`));
        expect(data).toEqual(byNumber);
        seen.push(...data.blogs.map((b: { id: string }) => b.id));
        if (!data.pagination.hasNext) break;
        // The cursor carries the query: it is enough on its own.
        data = expectSuccess(await list(`?cursor=${data.pagination.nextCursor}`));
      }
      expect(data.pagination.nextCursor).toBeNull();
      expect(data.pagination.page).toBe(data.pagination.totalPages);
      const all = expectSuccess(await list(`${query}&page=1`.replace(/limit=\d+/, "limit=50")));
      expect(seen).toEqual(all.blogs.map((b: { id: string }) => b.id));
    }
  });

  it("accepts the cursor's own parameters repeated, and refuses changed ones naming the cursor", async () => {
    const cursor = expectSuccess(await list("?limit=5&public=false")).pagination.nextCursor;
    expect(expectSuccess(await list(`?cursor=${cursor}&limit=5&public=false&page=2`)).pagination).toMatchObject({ page: 2, limit: 5, total: 15 });
    for (const changed of ["limit=6", "page=3", "public=true", "from=2025-03-01"]) {
      const error = expectError(await list(`?cursor=${cursor}&${changed}`), 400, "INVALID_PARAMETER");
      expect(error.message).toBe("Invalid parameter: cursor");
      expect(error.details).toContain(changed.split("=")[0]);
    }
  });

  it.each(["", "abc", "!!!", "WzEsIngiXQ", Buffer.from('[1,"2025-03-01T12:00:00.000Z","x",1,10,null,null,null]').toString("base64url")])(
    "rejects cursor=%j",
    async (cursor) => {
      const error = expectError(await list(`?cursor=${encodeURIComponent(cursor)}`), 400, "INVALID_PARAMETER");
      expect(error.details).toBe("cursor must be a pagination.nextCursor returned by this endpoint");
    },
  );

  it("keeps totals exact through later writes (per-day counters kept by triggers)", async () => {
    const counted = await createTestAccount();
    const ids = await seedBlogs(counted.id, [
      { isPublic: true, createdAt: day("2025-05-01") },
      { isPublic: false, createdAt: day("2025-05-01") },
      { isPublic: false, createdAt: day("2025-05-02") },
      { allowApiAccess: false, createdAt: day("2025-05-02") },
    ]);
    const totals = async () =>
      Promise.all(["", "?public=true", "?from=2025-05-02", "?to=2025-05-01&public=false"].map(async (q) => expectSuccess(await list(q, counted.key)).pagination.total));
    expect(await totals()).toEqual([3, 1, 1, 1]);
    await db().blog.update({ where: { id: ids[3]! }, data: { allowApiAccess: true, isPublic: true } });
    await db().blog.update({ where: { id: ids[0]! }, data: { createdAt: day("2025-05-02") } });
    await db().blog.delete({ where: { id: ids[1]! } });
    expect(await totals()).toEqual([3, 2, 3, 0]);
  });

  it("answers a page past the last with an empty list", async () => {
    const data = expectSuccess(await list("?page=99&limit=10"));
    expect(data).toEqual({
      blogs: [],
      pagination: { page: 99, limit: 10, total: 23, totalPages: 3, hasNext: false, hasPrev: true, nextCursor: null },
    });
  });

  it("reports zero pages for an account without blogs", async () => {
    expect(expectSuccess(await list("", empty.key)).pagination).toEqual({
      page: 1, limit: 10, total: 0, totalPages: 0, hasNext: false, hasPrev: false, nextCursor: null,
    });
  });

  it("accepts limits 1 and 50", async () => {
    expect(expectSuccess(await list("?limit=1")).blogs).toHaveLength(1);
    expect(expectSuccess(await list("?limit=50")).pagination).toMatchObject({ limit: 50, totalPages: 1, hasNext: false });
  });

  it.each(["0", "-1", "2.5", "abc", "51", "", "1e1", " 5", "10&limit=20"])("rejects limit=%j", async (limit) => {
    const error = expectError(await list(`?limit=${encodeURIComponent(limit).replace("%26limit%3D", "&limit=")}`), 400, "INVALID_PARAMETER");
    expect(error.details).toBe("limit must be an integer between 1 and 50");
  });

  it.each(["0", "-1", "1.5", "abc", ""])("rejects page=%j", async (page) => {
    const error = expectError(await list(`?page=${encodeURIComponent(page)}`), 400, "INVALID_PARAMETER");
    expect(error.details).toMatch(/^page must be an integer/);
  });

  it("filters by visibility with public=true and public=false", async () => {
    const publicOnes = expectSuccess(await list("?public=true&limit=50"));
    expect(publicOnes.pagination.total).toBe(8);
    expect(publicOnes.blogs.every((b: { isPublic: boolean }) => b.isPublic)).toBe(true);
    const privateOnes = expectSuccess(await list("?public=false&limit=50"));
    expect(privateOnes.pagination.total).toBe(15);
    expect(privateOnes.blogs.every((b: { isPublic: boolean }) => !b.isPublic)).toBe(true);
  });

  it.each(["yes", "1", "TRUE", ""])("rejects public=%j", async (value) => {
    const error = expectError(await list(`?public=${value}`), 400, "INVALID_PARAMETER");
    expect(error.details).toMatch(/^public /);
  });

  it("filters by creation day, both bounds inclusive whole UTC days", async () => {
    const data = expectSuccess(await list("?from=2025-03-05&to=2025-03-07"));
    expect(data.blogs.map((b: { title: string }) => b.title)).toEqual(["Visible 6", "Visible 5", "Visible 4"]);
    expect(expectSuccess(await list("?from=2025-03-20")).pagination.total).toBe(4);
    expect(expectSuccess(await list("?to=2025-03-02")).pagination.total).toBe(2);
    expect(expectSuccess(await list("?from=2025-03-05&to=2025-03-05&public=false")).pagination.total).toBe(1);
  });

  it("includes the last instant of the `to` day and excludes the first of the next", async () => {
    const edge = await createTestAccount();
    await seedBlogs(edge.id, [
      { title: "last", createdAt: new Date("2025-06-01T23:59:59.999Z") },
      { title: "next", createdAt: new Date("2025-06-02T00:00:00.000Z") },
      { title: "first", createdAt: new Date("2025-06-01T00:00:00.000Z") },
    ]);
    const titles = expectSuccess(await list("?from=2025-06-01&to=2025-06-01", edge.key)).blogs.map((b: { title: string }) => b.title);
    expect(titles).toEqual(["last", "first"]);
  });

  it.each([
    ["from", "2024-02-30"],
    ["from", "2025-13-01"],
    ["to", "2025-1-5"],
    ["to", "yesterday"],
    ["from", "2025-03-05T00:00:00Z"],
    ["to", ""],
  ])("rejects %s=%j", async (name, value) => {
    const error = expectError(await list(`?${name}=${encodeURIComponent(value)}`), 400, "INVALID_PARAMETER");
    expect(error.details).toBe(`${name} must be a real calendar date in the form YYYY-MM-DD`);
  });

  it("rejects from after to", async () => {
    const error = expectError(await list("?from=2025-03-08&to=2025-03-07"), 400, "INVALID_PARAMETER");
    expect(error.details).toMatch(/from/);
  });

  it("accepts 2024-02-29, a real leap day", async () => {
    expectSuccess(await list("?from=2024-02-29"));
  });

  it("ignores unknown query parameters", async () => {
    expect(expectSuccess(await list("?sort=title&foo=bar")).pagination.total).toBe(23);
  });
});
