import { describe, expect, it } from "vitest";
import { continueMarkup, insertBlock, toggleCode, toggleHeading, toggleInline, toggleLines, toggleLink, type MarkdownEdit } from "~/lib/markdown-format";

/**
 * `text` with its selection written in it as `«` and `»` (a caret: `|`), the way the edit leaves
 * it: an edit's text and selection read at a glance.
 */
function run(marked: string, edit: (text: string, from: number, to: number) => MarkdownEdit): string {
  const caret = marked.indexOf("|");
  const from = caret === -1 ? marked.indexOf("«") : caret;
  const to = caret === -1 ? marked.indexOf("»") - 1 : caret;
  const text = caret === -1 ? marked.replace("«", "").replace("»", "") : marked.replace("|", "");
  return shown(text, edit(text, from, to));
}

function shown(text: string, { from, to, insert, selection }: MarkdownEdit): string {
  const result = text.slice(0, from) + insert + text.slice(to);
  if (selection.from === selection.to) return `${result.slice(0, selection.from)}|${result.slice(selection.from)}`;
  return `${result.slice(0, selection.from)}«${result.slice(selection.from, selection.to)}»${result.slice(selection.to)}`;
}

describe("toggleInline", () => {
  const bold = (text: string, from: number, to: number) => toggleInline(text, from, to, "bold");
  const italic = (text: string, from: number, to: number) => toggleInline(text, from, to, "italic");

  it("wraps the selection, its edge spaces left outside, and unwraps it from inside or outside", () => {
    expect(run("a «word» here", bold)).toBe("a **«word»** here");
    expect(run("a« word »here", bold)).toBe("a **«word»** here");
    expect(run("a **«word»** here", bold)).toBe("a «word» here");
    expect(run("a «**word**» here", bold)).toBe("a «word» here");
    expect(run("a «word» here", italic)).toBe("a _«word»_ here");
  });

  it("keeps bold and italic apart", () => {
    expect(run("**«word»**", italic)).toBe("**_«word»_**");
    expect(run("**_«word»_**", bold)).toBe("**_**«word»**_**");
    expect(run("**_«word»_**", italic)).toBe("**«word»**");
  });

  it("with a caret: a pair to type in, or the empty pair taken away", () => {
    expect(run("Say |", bold)).toBe("Say **|**");
    expect(run("Say **|**", bold)).toBe("Say |");
  });
});

describe("toggleHeading", () => {
  it("cycles a paragraph through level 2, level 3 and back", () => {
    const cycle = (text: string, from: number, to: number) => toggleHeading(text, from, to, "cycle");
    expect(run("Intro\nTi|tle\nMore", cycle)).toBe("Intro\n## Ti|tle\nMore");
    expect(run("## Ti|tle", cycle)).toBe("### Ti|tle");
    expect(run("### Ti|tle", cycle)).toBe("Ti|tle");
    expect(run("# Ti|tle", cycle)).toBe("## Ti|tle");
  });

  it("sets a level, or takes it away when the line has it already", () => {
    expect(run("|Title", (t, f, o) => toggleHeading(t, f, o, 3))).toBe("### |Title");
    expect(run("### Ti|tle", (t, f, o) => toggleHeading(t, f, o, 3))).toBe("Ti|tle");
    expect(run("### Ti|tle", (t, f, o) => toggleHeading(t, f, o, 2))).toBe("## Ti|tle");
  });
});

describe("toggleLines", () => {
  const bullet = (text: string, from: number, to: number) => toggleLines(text, from, to, "bullet");
  const numbered = (text: string, from: number, to: number) => toggleLines(text, from, to, "numbered");
  const quote = (text: string, from: number, to: number) => toggleLines(text, from, to, "quote");

  it("makes every line of the selection an item, skipping blank ones, and back", () => {
    expect(run("«one\n\ntwo»", bullet)).toBe("- «one\n\n- two»");
    expect(run("- «one\n\n- two»", bullet)).toBe("«one\n\ntwo»");
    expect(run("o«ne\ntw»o", numbered)).toBe("1. o«ne\n2. tw»o");
  });

  it("turns one kind of list into the other, indentation kept", () => {
    expect(run("«- one\n  - two»", numbered)).toBe("1. «one\n  2. two»");
    expect(run("1. one|", bullet)).toBe("- one|");
  });

  it("starts a quote or an item on an empty line, the caret after its marker", () => {
    expect(run("|", quote)).toBe("> |");
    expect(run("Text\n|", bullet)).toBe("Text\n- |");
    expect(run("> Qu|oted", quote)).toBe("Qu|oted");
  });
});

describe("toggleLink", () => {
  it("wraps the selection and selects the address to type over", () => {
    expect(run("see «the docs» now", toggleLink)).toBe("see [the docs](«url») now");
    expect(run("see | now", toggleLink)).toBe("see [](«url») now");
  });

  it("makes a selected address the target, and unlinks a selected link", () => {
    expect(run("«https://example.com/a»", toggleLink)).toBe("[|](https://example.com/a)");
    expect(run("«[the docs](https://x.test)»", toggleLink)).toBe("«the docs»");
  });
});

describe("toggleCode", () => {
  it("inline within a line", () => {
    expect(run("call «run()» now", toggleCode)).toBe("call `«run()»` now");
    expect(run("call `«run()»` now", toggleCode)).toBe("call «run()» now");
  });

  it("fenced over several lines or on an empty line, and unfenced", () => {
    expect(run("Before\n«a = 1\nb = 2»\nAfter", toggleCode)).toBe("Before\n```\n«a = 1\nb = 2»\n```\nAfter");
    expect(run("Before\n```\n«a = 1\nb = 2»\n```\nAfter", toggleCode)).toBe("Before\n«a = 1\nb = 2»\nAfter");
    expect(run("Text\n|", toggleCode)).toBe("Text\n```\n|\n```");
  });
});

describe("insertBlock", () => {
  const IMAGE = "![A cat](/images/abc/800x600.png)";
  const image = (text: string, from: number, to: number) => insertBlock(text, from, to, IMAGE);

  it("puts a block inside a line on lines of its own, the caret after it", () => {
    expect(run("|# Heading", image)).toBe(`${IMAGE}|\n\n# Heading`);
    expect(run("Some| text here", image)).toBe(`Some\n\n${IMAGE}|\n\n text here`);
  });

  it("adds no blank line a paragraph boundary already has", () => {
    expect(run("Before.\n\n|After.", image)).toBe(`Before.\n\n${IMAGE}|\n\nAfter.`);
    expect(run("Before.\n|", image)).toBe(`Before.\n\n${IMAGE}|`);
  });

  it("at the end or in an empty text, adds nothing after", () => {
    expect(run("|", image)).toBe(`${IMAGE}|`);
    expect(run("Last line.|", image)).toBe(`Last line.\n\n${IMAGE}|`);
  });

  it("replaces the selection, and keeps within a text that shrank", () => {
    expect(run("Keep this,« drop this.»", image)).toBe(`Keep this,\n\n${IMAGE}|`);
    expect(shown("Short", insertBlock("Short", 40, 50, IMAGE))).toBe(`Short\n\n${IMAGE}|`);
  });
});

describe("continueMarkup", () => {
  const enter = (text: string, from: number) => continueMarkup(text, from) ?? { from, to: from, insert: "\n", selection: { from: from + 1, to: from + 1 } };

  it("continues a list or a quote on the next line, numbers counting on", () => {
    expect(run("- one|", enter)).toBe("- one\n- |");
    expect(run("  * one|", enter)).toBe("  * one\n  * |");
    expect(run("9. nine|", enter)).toBe("9. nine\n10. |");
    expect(run("> wise|", enter)).toBe("> wise\n> |");
    expect(run("- sp|lit", enter)).toBe("- sp\n- |lit");
  });

  it("ends the list or the quote on an empty item", () => {
    expect(run("- one\n- |", enter)).toBe("- one\n|");
    expect(run("> wise\n> |", enter)).toBe("> wise\n|");
  });

  it("is a plain new line elsewhere, or inside the marker", () => {
    expect(continueMarkup("Just text", 4)).toBeNull();
    expect(continueMarkup("- one", 1)).toBeNull();
  });
});
