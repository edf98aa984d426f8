import { describe, expect, it } from "vitest";
import { decodeBlogCursor, encodeBlogCursor, type BlogCursor } from "~/server/blogs/blog-cursor";

const cursor: BlogCursor = {
  sort: "-createdAt",
  key: "2026-03-04T05:06:07.089Z",
  id: "cm0abc123",
  page: 3,
  limit: 20,
  public: true,
  status: "published",
  tag: "next-js",
  from: new Date("2026-01-01T00:00:00Z"),
  to: new Date("2026-12-31T00:00:00Z"),
};

/** A cursor's text from its JSON fields, as encodeBlogCursor writes them. */
const encoded = (fields: unknown) => Buffer.from(JSON.stringify(fields)).toString("base64url");

const unset = { public: undefined, status: undefined, tag: undefined, from: undefined, to: undefined, q: undefined };

describe("the blog list cursor (docs/api.md, deep pages)", () => {
  it("decodes what it encodes, with and without filters, in URL-safe characters", () => {
    const text = encodeBlogCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeBlogCursor(text)).toEqual({ ...cursor, q: undefined });
    const unfiltered = { sort: "title" as const, key: "Ünïcode, a title of 200 characters ".repeat(6).slice(0, 200), id: "x", page: 2, limit: 10 };
    expect(decodeBlogCursor(encodeBlogCursor(unfiltered))).toEqual({ ...unfiltered, ...unset });
    const neverPublished = { sort: "publishedAt" as const, key: null, id: "x", page: 2, limit: 10, q: "q" };
    expect(decodeBlogCursor(encodeBlogCursor(neverPublished))).toEqual({ ...unset, ...neverPublished });
  });

  it("still reads the first version's cursors (newest first, no status or tag)", () => {
    const v1 = [1, "2026-03-04T05:06:07.089Z", "id", 2, 10, true, null, null, "hello"];
    expect(decodeBlogCursor(encoded(v1))).toEqual({ ...unset, sort: "-createdAt", key: v1[1], id: "id", page: 2, limit: 10, public: true, q: "hello" });
  });

  it("refuses anything it did not issue", () => {
    const valid = [2, "2026-03-04T05:06:07.089Z", "id", 2, 10, null, null, null, "-createdAt", null, null];
    expect(decodeBlogCursor(encoded(valid))).not.toBeNull();
    const broken: unknown[][] = [
      [3, ...valid.slice(1)], // another version
      [2, "2026-03-04T05:06:07Z", ...valid.slice(2)], // not the server's ISO form
      [2, "2026-02-30T05:06:07.089Z", ...valid.slice(2)], // no such day
      [2, null, ...valid.slice(2)], // only publishedAt may be missing
      [2, valid[1], "", ...valid.slice(3)], // empty id
      [2, valid[1], "id", 1, ...valid.slice(4)], // page 1 needs no cursor
      [2, valid[1], "id", 2.5, ...valid.slice(4)],
      [2, valid[1], "id", 2, 51, ...valid.slice(5)], // limit above 50
      [2, valid[1], "id", 2, 10, "yes", ...valid.slice(6)],
      [2, valid[1], "id", 2, 10, null, "2026-13-01", ...valid.slice(7)],
      [...valid.slice(0, 8), "newest", null, null], // no such sort
      [...valid.slice(0, 9), "archived", null], // no such status
      [...valid.slice(0, 10), ""], // empty tag
      valid.slice(0, 10),
    ];
    for (const fields of broken) expect(decodeBlogCursor(encoded(fields)), JSON.stringify(fields)).toBeNull();
    for (const text of ["", "not a cursor!", "e30", "a".repeat(2049), encoded({ page: 2 })]) expect(decodeBlogCursor(text), text).toBeNull();
  });
});
