import { describe, expect, it } from "vitest";
import { insertBlock } from "~/lib/markdown-insert";

const IMAGE = "![A cat](/images/abc/800x600.png)";

describe("insertBlock", () => {
  it("puts a block inside a line on lines of its own, the caret after it", () => {
    const { text, caret } = insertBlock("# Heading", 0, 0, IMAGE);
    expect(text).toBe(`${IMAGE}\n\n# Heading`);
    expect(caret).toBe(IMAGE.length);
    expect(insertBlock("Some text here", 4, 4, IMAGE).text).toBe(`Some\n\n${IMAGE}\n\n text here`);
  });

  it("adds no blank line a paragraph boundary already has", () => {
    expect(insertBlock("Before.\n\nAfter.", 9, 9, IMAGE).text).toBe(`Before.\n\n${IMAGE}\n\nAfter.`);
    expect(insertBlock("Before.\n", 8, 8, IMAGE).text).toBe(`Before.\n\n${IMAGE}`);
  });

  it("at the end or in an empty text, adds nothing after", () => {
    expect(insertBlock("", 0, 0, IMAGE)).toEqual({ text: IMAGE, caret: IMAGE.length });
    const { text, caret } = insertBlock("Last line.", 10, 10, IMAGE);
    expect(text).toBe(`Last line.\n\n${IMAGE}`);
    expect(caret).toBe(text.length);
  });

  it("replaces the selection, and keeps within a text that shrank", () => {
    expect(insertBlock("Keep this, drop this.", 10, 21, IMAGE).text).toBe(`Keep this,\n\n${IMAGE}`);
    expect(insertBlock("Short", 40, 50, IMAGE).text).toBe(`Short\n\n${IMAGE}`);
  });
});
