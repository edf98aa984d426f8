import { describe, expect, it } from "vitest";
import { countWords, readingMinutes, WORDS_PER_MINUTE } from "~/shared/reading-time";

describe("countWords", () => {
  it("counts the words read, not Markdown's marks nor addresses", () => {
    expect(countWords("## A *short* heading\n\n- one\n- two")).toBe(5);
    expect(countWords("See [the docs](https://example.com/a/long/path) and ![a cat](/images/abc/800x600.png).")).toBe(6);
    expect(countWords("")).toBe(0);
  });

  it("tells words apart in languages written without spaces", () => {
    expect(countWords("我喜欢读书")).toBeGreaterThan(1);
  });
});

describe("readingMinutes", () => {
  it("rounds up to whole minutes, none for no text", () => {
    expect(readingMinutes(0)).toBe(0);
    expect(readingMinutes(1)).toBe(1);
    expect(readingMinutes(WORDS_PER_MINUTE)).toBe(1);
    expect(readingMinutes(WORDS_PER_MINUTE + 1)).toBe(2);
  });
});
