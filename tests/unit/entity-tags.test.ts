import { describe, expect, it } from "vitest";
import { headerNamesTag, namesEntityTagsOnly } from "~/server/http/entity-tags";

describe("If-None-Match headers that earn a free 304 (docs/api.md, conditional requests)", () => {
  it.each([['"abc"'], ['W/"abc"'], ['"a", W/"b" ,"c"'], ['""']])("%s names entity tags only", (header) => {
    expect(namesEntityTagsOnly(header)).toBe(true);
  });

  it.each([["*"], [" * "], ['"a", *'], ["abc"], ['"a'], [""], ['"a",'], ['w/"a"']])("%s does not", (header) => {
    expect(namesEntityTagsOnly(header)).toBe(false);
  });

  it("is false without the header", () => {
    expect(namesEntityTagsOnly(null)).toBe(false);
  });

  it("still matches a wildcard, which then costs its unit", () => {
    expect(headerNamesTag("*", '"abc"', "weak")).toBe(true);
  });
});
