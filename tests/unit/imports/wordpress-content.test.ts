import { describe, expect, it } from "vitest";
import { htmlToMarkdown } from "~/server/imports/html-to-markdown";
import { type Attachment, type ContentContext, wordPressContentToMarkdown } from "~/server/imports/wordpress/content";
import { wpautop } from "~/server/imports/wordpress/wpautop";

/** A WordPress post's content as Markdown (docs/migrating.md, What maps to what), case by case. */

const attachments = new Map<string, Attachment>([
  ["5", { url: "https://old.example/a.jpg", title: "Harbour", alt: "The harbour", parent: "1" }],
  ["6", { url: "https://old.example/b.jpg", title: "Boats", alt: "", parent: "1" }],
  ["7", { url: "https://old.example/song.mp3", title: "A song", alt: "", parent: "2" }],
]);
const context: ContentContext = { postId: "1", link: "https://old.example/2019/05/hello/", attachments, footnotes: "" };
const convert = (content: string, overrides: Partial<ContentContext> = {}) => wordPressContentToMarkdown(content, { ...context, ...overrides });

describe("wpautop", () => {
  it("makes paragraphs of blank lines and line breaks of single newlines, leaving <pre> and blocks alone", () => {
    expect(wpautop("One\n\nTwo\nthree")).toBe("<p>One</p>\n<p>Two<br />\nthree</p>\n");
    expect(wpautop("Text\n<pre>a\n\nb</pre>\nMore")).toBe("<p>Text</p>\n<pre>a\n\nb</pre>\n<p>More</p>\n");
    expect(wpautop("<ul>\n<li>a</li>\n<li>b</li>\n</ul>\nAfter")).toBe("<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n<p>After</p>\n");
    expect(wpautop("<blockquote>Quoted\nline</blockquote>")).toBe("<blockquote><p>Quoted<br />\nline</p></blockquote>\n");
    expect(wpautop("  \n ")).toBe("");
  });

  it("gives Markdown paragraphs and hard breaks for a classic post", () => {
    expect(convert("First paragraph.\n\nSecond line one\nline two").markdown).toBe("First paragraph.\n\nSecond line one\\\nline two");
  });

  it("is not applied to block-editor posts, whose block comments go", () => {
    const { markdown } = convert("<!-- wp:paragraph -->\n<p>One</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:separator /-->\n<hr class=\"wp-block-separator\"/>");
    expect(markdown).toBe("One\n\n---");
  });
});

describe("shortcodes", () => {
  it("turns [caption] into the image and an italic caption line, from its text or its attribute", () => {
    expect(convert('[caption id="attachment_5" align="alignnone" width="300"]<a href="https://old.example/a.jpg"><img src="https://old.example/a.jpg" alt="Harbour" /></a> The harbour at <b>dawn</b>[/caption]').markdown).toBe(
      "[![Harbour](https://old.example/a.jpg)](https://old.example/a.jpg)\n\n_The harbour at **dawn**_",
    );
    expect(convert('[caption caption="Boats &amp; nets"]<img src="https://old.example/b.jpg" alt="" />[/caption]').markdown).toBe("![](https://old.example/b.jpg)\n\n_Boats & nets_");
  });

  it("lists a gallery's images by id, or the post's attached images, and links an unresolvable one", () => {
    expect(convert('[gallery ids="6,5"]').markdown).toBe("- ![Boats](https://old.example/b.jpg)\n- ![The harbour](https://old.example/a.jpg)");
    expect(convert("[gallery columns=\"2\"]").markdown).toBe("- ![The harbour](https://old.example/a.jpg)\n- ![Boats](https://old.example/b.jpg)");
    const missing = convert('[gallery ids="40,41"]');
    expect(missing.markdown).toBe("[Gallery (on the original site)](https://old.example/2019/05/hello/)");
    expect(missing.notes).toEqual(["a gallery's images 40, 41 are not in the export: left out of the gallery", "a [gallery] whose files are not in the export is kept as a link to the original post"]);
  });

  it("keeps [embed], media and URLs alone on a line as links, with a note", () => {
    const embed = convert("Watch this:\n\n[embed]https://www.youtube.com/watch?v=abc[/embed]\n\nhttps://vimeo.com/123\n\n[audio mp3=\"https://old.example/song.mp3\"][/audio]");
    expect(embed.markdown).toBe("Watch this:\n\n<https://www.youtube.com/watch?v=abc>\n\n<https://vimeo.com/123>\n\n<https://old.example/song.mp3>");
    expect(embed.notes).toEqual([
      "an embed (https://www.youtube.com/watch?v=abc) is kept as a link",
      "an audio file (https://old.example/song.mp3) is kept as a link",
      "an embed (https://vimeo.com/123) is kept as a link",
    ]);
    expect(convert("[playlist ids=\"7\"]").markdown).toBe("- [A song](https://old.example/song.mp3)");
  });

  it("keeps a shortcode it cannot render as visible text, named in a note, and what it encloses", () => {
    const form = convert('Write to us:\n\n[contact-form-7 id="12" title="Contact"]\n\n[su_box title="Tip"]Use <em>both</em> hands.[/su_box]');
    expect(form.markdown).toBe('Write to us:\n\n\\[contact-form-7 id="12" title="Contact"]\n\n\\[su_box title="Tip"]Use _both_ hands.\\[/su_box]');
    expect(form.notes).toEqual(["[contact-form-7] kept as text: it is a WordPress shortcode this blog cannot render", "[su_box] kept as text: it is a WordPress shortcode this blog cannot render"]);
  });

  it("leaves bracketed words, escaped shortcodes and code blocks alone, without a note", () => {
    const text = convert("He wrote [sic] and [[gallery]].\n\n<pre>[gallery ids=\"5\"]\nhttps://example.com</pre>");
    expect(text.markdown).toBe("He wrote \\[sic] and \\[gallery].\n\n```\n[gallery ids=\"5\"]\nhttps://example.com\n```");
    expect(text.notes).toEqual([]);
  });

  it("makes [code] a code block in its language", () => {
    expect(convert('[code language="php"]\n<?php echo "hi"; ?>\n[/code]').markdown).toBe('```php\n<?php echo "hi"; ?>\n```');
  });
});

describe("code, tables and footnotes", () => {
  it("reads a code block's language wherever WordPress puts it", () => {
    expect(convert('<pre class="wp-block-code"><code lang="python" class="language-python">print("hi")</code></pre>').markdown).toBe('```python\nprint("hi")\n```');
    expect(convert('<pre class="brush: ruby; title: ; notranslate">puts 1 &lt; 2</pre>').markdown).toBe("```ruby\nputs 1 < 2\n```");
    expect(convert("<pre><code>plain</code></pre>").markdown).toBe("```\nplain\n```");
  });

  it("keeps a table", () => {
    expect(convert("<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>").markdown).toBe("| A | B |\n| - | - |\n| 1 | 2 |");
  });

  it("turns the block editor's footnotes into Markdown footnotes, numbered in reading order", () => {
    const footnotes = JSON.stringify([
      { id: "b-2", content: "The second, with <em>emphasis</em>." },
      { id: "a-1", content: "The first." },
    ]);
    const content =
      '<!-- wp:paragraph --><p>One<sup data-fn="a-1" class="fn"><a href="#a-1" id="a-1-link">1</a></sup> and two<sup data-fn="b-2" class="fn"><a href="#b-2" id="b-2-link">2</a></sup>.</p><!-- /wp:paragraph -->\n<!-- wp:footnotes /-->';
    expect(convert(content, { footnotes }).markdown).toBe("One[^fn-1] and two[^fn-2].\n\n[^fn-1]: The first.\n\n[^fn-2]: The second, with _emphasis_.");
  });
});

describe("html-to-markdown", () => {
  it("makes a figure's caption an italic line under its image", () => {
    expect(htmlToMarkdown('<figure><img src="https://x.example/a.png" alt="A"><figcaption>A <a href="https://x.example">link</a></figcaption></figure>').markdown).toBe(
      "![A](https://x.example/a.png)\n\n_A [link](https://x.example)_",
    );
  });

  it("drops HTML comments and reads GFM footnotes as rendered HTML back", () => {
    const html =
      '<p>Text<!--more--><sup><a href="#user-content-fn-note" id="user-content-fnref-note" data-footnote-ref>1</a></sup></p><section data-footnotes class="footnotes"><h2 id="footnote-label" class="sr-only">Footnotes</h2><ol><li id="user-content-fn-note"><p>A note. <a href="#user-content-fnref-note" data-footnote-backref aria-label="Back to reference 1">↩</a></p></li></ol></section>';
    expect(htmlToMarkdown(html).markdown).toBe("Text[^fn-note]\n\n[^fn-note]: A note.");
  });

  it("keeps a plain superscript as text", () => {
    expect(htmlToMarkdown("<p>x<sup>2</sup></p>").markdown).toBe("x2");
  });
});
