import { describe, expect, it } from "vitest";
import { personalize, renderNewsletter, type NewsletterPost, type NewsletterSite } from "~/server/newsletters/email";

/** A post's newsletter email (docs/newsletters.md, Sending): rendered once, personalized per subscriber. */
const site: NewsletterSite = {
  title: "Ada's Notes",
  origin: "https://blogs.example.com",
  home: "https://blogs.example.com/ada",
  linkColor: "#b42318",
  logo: { id: "clogo00000000000000000001", width: 256, height: 256, format: "png" },
};
const cover = { id: "ccover0000000000000000001", width: 2400, height: 1200, format: "jpeg" as const, bytes: 1000 };
const post: NewsletterPost = {
  title: "Engines & <Numbers>",
  description: "A note on the analytical engine",
  content: [
    "Intro with a [relative link](other-post), a [path](/ada/about), a [page anchor](#notes) and [elsewhere](https://example.org/x).",
    "",
    "![A figure](/images/cfigure000000000000000001/1600x900.jpeg)",
    "",
    "![Remote](https://cdn.example.org/pic.png)",
    "",
    "```js",
    "const long = 'a line much longer than any phone screen is wide, which must wrap rather than scroll';",
    "```",
    "",
    "- [x] done task",
    "",
    "<script>alert(1)</script>",
  ].join("\n"),
  cover,
  imagesWithPendingVariants: [],
  url: "https://blogs.example.com/ada/engines",
};

describe("newsletter email", () => {
  it("carries the post with inline styles, absolute images and links, and a plain-text part", async () => {
    const rendered = await renderNewsletter(post, site);
    expect(rendered.subject).toBe("Engines & <Numbers>");
    const { html, text } = personalize(rendered, site.home, "tok_en-1");
    // Every image one absolute file: the cover's and the figure's 1328 px variant, the logo's original (no wider variant).
    const images = [...html.matchAll(/<img[^>]*src="([^"]+)"/g)].map((match) => match[1]);
    expect(images).toEqual([
      "https://blogs.example.com/images/clogo00000000000000000001/256x256.png",
      "https://blogs.example.com/images/ccover0000000000000000001/1328w.jpeg",
      "https://blogs.example.com/images/cfigure000000000000000001/1328w.jpeg",
      "https://cdn.example.org/pic.png",
    ]);
    expect(html).not.toMatch(/<picture|<source|srcset/i);
    const links = [...html.matchAll(/<a[^>]*href="([^"]+)"/g)].map((match) => match[1]!.replaceAll("&#x26;", "&").replaceAll("&amp;", "&"));
    for (const link of links) expect(link).toMatch(/^https:\/\//);
    expect(links).toEqual(
      expect.arrayContaining([
        "https://blogs.example.com/ada/other-post",
        "https://blogs.example.com/ada/about",
        "https://blogs.example.com/ada/engines#notes",
        "https://example.org/x",
        "https://blogs.example.com/ada/engines",
        "https://blogs.example.com/ada/unsubscribe?token=tok_en-1",
      ]),
    );
    // Code readable in mail clients: styled inline, wrapping.
    expect(html).toMatch(/<pre style="[^"]*white-space:pre-wrap[^"]*font-family:[^"]*monospace|<pre style="[^"]*monospace[^"]*white-space:pre-wrap/);
    expect(html).toMatch(/<a href="https:\/\/example.org\/x" style="color:#b42318/);
    expect(html).not.toMatch(/class="/);
    expect(html).not.toContain("<script");
    expect(html).toContain("☑ done task");
    expect(html).toContain("Engines &amp; &lt;Numbers&gt;");
    // The plain-text part: the words and the links, unsubscribe included.
    expect(text).toContain("Engines & <Numbers>");
    expect(text).toContain("https://blogs.example.com/ada/unsubscribe?token=tok_en-1");
    expect(text).toContain("https://blogs.example.com/ada/engines");
    expect(text).not.toMatch(/<(p|a|div|table)\b/);
    expect(text).toContain("☑ done task");
  });

  it("differs between subscribers only by the unsubscribe secret", async () => {
    const rendered = await renderNewsletter(post, site);
    const first = personalize(rendered, site.home, "first");
    const second = personalize(rendered, site.home, "second");
    expect(first.html.replaceAll("token=first", "token=second")).toBe(second.html);
    expect(first.unsubscribeUrl).toBe("https://blogs.example.com/ada/unsubscribe?token=first");
    expect(rendered.html).not.toContain("token=first");
  });
});
