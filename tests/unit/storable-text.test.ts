import { describe, expect, it } from "vitest";
import { findUnstorableText, textProblem } from "~/shared/storable-text";

describe("text PostgreSQL stores as sent (docs/api.md, writing rules)", () => {
  it.each([["plain"], ["émoji 😀 and CJK 漢字"], [""], ["tab\tand\nnewline"]])("takes %j", (value) => {
    expect(textProblem("title", value)).toBeNull();
  });

  it("refuses NUL, naming the field", () => {
    expect(textProblem("title", "a\u0000b")).toBe("title must not contain NUL characters");
  });

  it.each([["\ud800"], ["a\udc00"], ["\ud83d x"], ["x\ude00\ud83d"]])("refuses the unpaired surrogate in %j", (value) => {
    expect(textProblem("content", value)).toMatch(/^content must be valid Unicode text/);
  });

  it("finds the first bad text anywhere in an input, by its path, field names included", () => {
    expect(findUnstorableText({ title: "ok", tags: ["a", "b\u0000"] })).toEqual({ field: "tags.1", problem: "tags.1 must not contain NUL characters" });
    expect(findUnstorableText({ "bad\u0000": 1 })?.field).toBe("bad\u0000");
    expect(findUnstorableText("\u0000")?.field).toBe("input");
    expect(findUnstorableText({ title: "ok", n: 3, b: true, none: null, list: [1, { deep: "fine" }] })).toBeNull();
  });
});
