import { describe, expect, it } from "vitest";
import { decodeBlogCursor, encodeBlogCursor, type BlogCursor } from "~/server/blogs/blog-cursor";

const cursor: BlogCursor = {
  createdAt: new Date("2026-03-04T05:06:07.089Z"),
  id: "cm0abc123",
  page: 3,
  limit: 20,
  isPublic: true,
  from: new Date("2026-01-01T00:00:00Z"),
  to: new Date("2026-12-31T00:00:00Z"),
};

/** A cursor's text from its JSON fields, as encodeBlogCursor writes them. */
const encoded = (fields: unknown) => Buffer.from(JSON.stringify(fields)).toString("base64url");

describe("the blog list cursor (docs/api.md, deep pages)", () => {
  it("decodes what it encodes, with and without filters, in URL-safe characters", () => {
    const text = encodeBlogCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeBlogCursor(text)).toEqual(cursor);
    const unfiltered = { createdAt: cursor.createdAt, id: "x", page: 2, limit: 10 };
    expect(decodeBlogCursor(encodeBlogCursor(unfiltered))).toEqual({ ...unfiltered, isPublic: undefined, from: undefined, to: undefined });
  });

  it("refuses anything it did not issue", () => {
    const valid = [1, "2026-03-04T05:06:07.089Z", "id", 2, 10, null, null, null];
    expect(decodeBlogCursor(encoded(valid))).not.toBeNull();
    const broken: unknown[][] = [
      [2, ...valid.slice(1)], // another version
      [1, "2026-03-04T05:06:07Z", ...valid.slice(2)], // not the server's ISO form
      [1, "2026-02-30T05:06:07.089Z", ...valid.slice(2)], // no such day
      [1, valid[1], "", ...valid.slice(3)], // empty id
      [1, valid[1], "id", 1, ...valid.slice(4)], // page 1 needs no cursor
      [1, valid[1], "id", 2.5, ...valid.slice(4)],
      [1, valid[1], "id", 2, 51, null, null, null], // limit above 50
      [1, valid[1], "id", 2, 10, "yes", null, null],
      [1, valid[1], "id", 2, 10, null, "2026-13-01", null],
      valid.slice(0, 7),
    ];
    for (const fields of broken) expect(decodeBlogCursor(encoded(fields)), JSON.stringify(fields)).toBeNull();
    for (const text of ["", "not a cursor!", "e30", "a".repeat(513), encoded({ page: 2 })]) expect(decodeBlogCursor(text), text).toBeNull();
  });
});
