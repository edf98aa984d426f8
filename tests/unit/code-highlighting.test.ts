import { describe, expect, it } from "vitest";
import { markdownToHtml } from "~/lib/markdown";
import { articleHtml } from "~/server/public-site/article-html";
import { contrastRatio, highlightColours } from "~/server/public-site/code-highlighting";
import { READER_CSS } from "~/server/public-site/reader-style";

// Posts' code blocks highlighted when their page is rendered (docs/public-blog.md, Reading): token
// classes the one stylesheet defines, never a style attribute (the pages' CSP allows none).

const render = (markdown: string) => articleHtml(markdown, {});
const codeOf = (html: string) => /<pre>[\s\S]*?<\/pre>/.exec(html)?.[0] ?? "";
const tokenClasses = (html: string) => [...html.matchAll(/class="([^"]+)"/g)].flatMap((match) => match[1]!.split(" ")).filter((name) => name.startsWith("hl-"));

describe("a code block on a post's page", () => {
  const HTML = '<p class="note">Hi</p>';
  const samples: [string, string][] = [
    ...["js", "ts", "jsx", "tsx", "TypeScript"].map((language): [string, string] => [language, 'const answer = "42"; // a comment']),
    ["json", '{ "answer": 42, "ok": true }'],
    ...["html", "markdown", "md"].map((language): [string, string] => [language, language === "html" ? HTML : "# Title\n\n*emphasis* and `code`"]),
    ["css", ".note { color: red; }"],
    ...["bash", "sh", "shell"].map((language): [string, string] => [language, 'echo "$HOME" | grep -c x']),
    ...["python", "py"].map((language): [string, string] => [language, "def answer(x):\n    return 42  # a comment"]),
    ["go", 'func main() { fmt.Println("hi") }'],
    ["rust", "fn main() { let x: i32 = 1; }"],
    ["sql", "SELECT id FROM post WHERE slug = 'a';"],
    ...["yaml", "yml"].map((language): [string, string] => [language, "answer: 42\nlist: [a, b]"]),
    ["diff", "--- a\n+++ b\n- old\n+ new"],
  ];

  it.each(samples)("in %s: tokens as spans with classes, no style", (language, source) => {
    const code = codeOf(render(`\`\`\`${language}\n${source}\n\`\`\``));
    expect(code).toContain(`<code class="language-${language}">`);
    expect(tokenClasses(code).length).toBeGreaterThan(1);
    expect(code).not.toMatch(/style=/i);
  });

  it("closes what opens: after a Python docstring, keywords are coloured again", () => {
    const code = codeOf(render('```python\ndef f():\n    """Docs."""\n    return 1\n```'));
    const keyword = /<span class="([^"]+)">def <\/span>/.exec(code)?.[1];
    expect(keyword).toBeDefined();
    expect(code).toContain(`<span class="${keyword}">return </span>`);
  });

  it("keeps the code's text exactly, its markup escaped", () => {
    const source = 'const html = "<script>alert(1)</script>" && a < b;\n\tindented & done\n';
    const code = codeOf(render(`\`\`\`ts\n${source}\`\`\``));
    expect(code).not.toContain("<script");
    expect(code).toContain("&#x3C;script>alert(1)&#x3C;/script>");
    const text = code.replace(/<[^>]+>/g, "").replaceAll("&#x3C;", "<").replaceAll("&#x26;", "&");
    expect(text).toBe(source);
  });

  it("in an unknown language, or none, stays plain", () => {
    expect(codeOf(render("```klingon\n<b>qapla'</b>\n```"))).toBe('<pre><code class="language-klingon">&#x3C;b>qapla\'&#x3C;/b>\n</code></pre>');
    expect(codeOf(render("```\nplain text\n```"))).toBe("<pre><code>plain text\n</code></pre>");
  });

  it("a language name cannot smuggle markup or attributes", () => {
    const html = render('```ts" onmouseover="alert(1)\nx\n```');
    expect(html).not.toContain("onmouseover=");
  });

  it("is plain where the caller gives no highlighter (feeds, the dashboard's preview)", () => {
    expect(codeOf(markdownToHtml("```ts\nconst a = 1;\n```"))).toBe('<pre><code class="language-ts">const a = 1;\n</code></pre>');
  });

  it("every token class it writes has its colour in the pages' stylesheet", () => {
    const html = render(["ts", "python", "html", "diff", "yaml", "sql"].map((language) => `\`\`\`${language}\nx = "y" # 1 // 2 <a href="b">c</a>\n+ added\n- removed\n\`\`\``).join("\n\n"));
    for (const name of new Set(tokenClasses(html))) expect(READER_CSS).toContain(`.${name}{`);
  });
});

describe("code colours", () => {
  it.each(["light", "dark"] as const)("read at WCAG AA (4.5:1) on the %s scheme's code background", (scheme) => {
    const { background, colours } = highlightColours(scheme);
    expect(colours.length).toBeGreaterThan(5);
    for (const colour of colours) expect(contrastRatio(colour, background), colour).toBeGreaterThanOrEqual(4.5);
  });
});

describe("heading anchors on a post's page", () => {
  it("every h2–h4 gets the slug of its text as id, unique, and a link to itself named for it", () => {
    const html = render("## Getting started\n\n### Install\n\n## Getting started\n\n#### Install\n\n## Ünïcode & *emphasis*\n\n##  \n\n# Title stays bare\n\n##### h5 stays bare");
    expect([...html.matchAll(/<h([2-4]) id="([^"]+)">/g)].map((match) => match[2])).toEqual(["getting-started", "install", "getting-started-1", "install-1", "ünïcode--emphasis", "section"]);
    expect(html).toContain('<h2 id="getting-started">Getting started<a class="heading-anchor" href="#getting-started" aria-label="Link to section Getting started">#</a></h2>');
    expect(html).toContain('aria-label="Link to section Ünïcode &#x26; emphasis"');
    expect(html).toContain("<h1>Title stays bare</h1>");
    expect(html).toContain("<h5>h5 stays bare</h5>");
  });

  it("never takes an id the post already has (its footnotes')", () => {
    const html = render("Text[^1]\n\n## Footnote label\n\n## Footnotes\n\n[^1]: A note.");
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain("footnote-label");
    expect(ids).toContain("footnote-label-1");
  });

  it("are left out of feeds and the dashboard's preview", () => {
    expect(markdownToHtml("## Section")).toBe("<h2>Section</h2>");
  });
});

describe("the first image of a post's page", () => {
  const ID = "climage0000000000000000001";
  const images = `![One](/images/${ID}/2000x1000.jpeg)\n\n![Two](/images/${ID}/2000x1000.png)`;
  const hints = (html: string) => [...html.matchAll(/<img [^>]*?((?: (?:fetchpriority|loading|decoding)="[^"]+")+)>/g)].map((match) => match[1]!.trim());

  it("is fetched first when no cover is above it, the rest lazily", () => {
    expect(hints(articleHtml(images, {}))).toEqual(['fetchpriority="high" loading="eager" decoding="async"', 'loading="lazy" decoding="async"']);
  });

  it("is lazy like the rest below a cover", () => {
    expect(hints(articleHtml(images, { hasCover: true }))).toEqual(['loading="lazy" decoding="async"', 'loading="lazy" decoding="async"']);
  });
});
