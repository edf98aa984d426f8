import { describe, expect, it } from "vitest";
import { markdownToHtml } from "~/lib/markdown";
import { READER_CSS } from "~/server/public-site/reader-style";
import { READER_COLUMN_SIZES, READER_GUTTER_REM, READER_PAGE_MAX_WIDTH_REM } from "~/shared/responsive-images";

// Markdown's images of our own (docs/public-blog.md, Reading): a <picture> of their variants
// (src/shared/images.ts), every other image as before, and nothing a source can inject.

const ID = "climage0000000000000000001";
const ORIGIN = "https://blogs.example";
const SIZES = `sizes="${READER_COLUMN_SIZES}"`;

/** The srcset of `widths` of the image in `format`, then its original when given, under `base`. */
const srcset = (format: string, widths: number[], original?: string, base = "") =>
  [...widths.map((width) => `${base}/images/${ID}/${width}w.${format} ${width}w`), ...(original ? [`${base}/images/${ID}/${original}`] : [])].join(", ");

const pictureOf = (markdown: string, options = {}) => /<picture>[\s\S]*?<\/picture>|<img[^>]*>/.exec(markdownToHtml(markdown, options))?.[0];

describe("an image of our own", () => {
  it("a JPEG: AVIF and WebP sources, the JPEG variants and the original in the <img>, with its size, lazily", () => {
    expect(pictureOf(`![A cat](/images/${ID}/2000x1000.jpeg "On the mat")`)).toBe(
      "<picture>" +
        `<source type="image/avif" srcset="${srcset("avif", [480, 664, 960, 1328, 1600])}" ${SIZES}>` +
        `<source type="image/webp" srcset="${srcset("webp", [480, 664, 960, 1328, 1600])}" ${SIZES}>` +
        `<img src="/images/${ID}/2000x1000.jpeg" alt="A cat" title="On the mat" width="2000" height="1000" ` +
        `srcset="${srcset("jpeg", [480, 664, 960, 1328, 1600], "2000x1000.jpeg 2000w")}" ${SIZES} loading="lazy" decoding="async">` +
        "</picture>",
    );
  });

  it("a PNG wider than every variant width: all six widths", () => {
    const html = pictureOf(`![](/images/${ID}/3000x2000.png)`)!;
    expect(html).toContain(`<source type="image/avif" srcset="${srcset("avif", [480, 664, 960, 1328, 1600, 2400])}"`);
    expect(html).toContain(`<source type="image/webp" srcset="${srcset("webp", [480, 664, 960, 1328, 1600, 2400])}"`);
    expect(html).toContain(`srcset="${srcset("png", [480, 664, 960, 1328, 1600, 2400], "3000x2000.png 3000w")}"`);
  });

  it("a WebP: an AVIF source; its own variants and original in the <img>", () => {
    const html = pictureOf(`![](/images/${ID}/1000x500.webp)`)!;
    expect(html.match(/<source /g)).toHaveLength(1);
    expect(html).toContain(`<source type="image/avif" srcset="${srcset("avif", [480, 664, 960])}"`);
    expect(html).toContain(`<img src="/images/${ID}/1000x500.webp" alt="" width="1000" height="500" srcset="${srcset("webp", [480, 664, 960], "1000x500.webp 1000w")}"`);
  });

  it("an AVIF: its own source first (with the original), so the WebP source only serves browsers without AVIF", () => {
    const html = pictureOf(`![](/images/${ID}/1000x500.avif)`)!;
    expect([...html.matchAll(/<source type="([^"]+)" srcset="([^"]+)"/g)].map((match) => [match[1], match[2]])).toEqual([
      ["image/avif", srcset("avif", [480, 664, 960], "1000x500.avif 1000w")],
      ["image/webp", srcset("webp", [480, 664, 960])],
    ]);
    expect(html).toContain(`<img src="/images/${ID}/1000x500.avif"`);
  });

  it("a GIF: no AVIF (none is made), a WebP source, the GIF in the <img>", () => {
    const html = pictureOf(`![](/images/${ID}/600x400.gif)`)!;
    expect([...html.matchAll(/<source type="([^"]+)"/g)].map((match) => match[1])).toEqual(["image/webp"]);
    expect(html).toContain(`srcset="${srcset("gif", [480], "600x400.gif 600w")}"`);
  });

  it("a wide photo: modern candidates at the column's width and twice it, so desktops at 1× and 2× (phones at 3×, 1,050 px, take the latter) get sharp pixels", () => {
    const column = (READER_PAGE_MAX_WIDTH_REM - 2 * READER_GUTTER_REM) * 16;
    const widths = [...pictureOf(`![](/images/${ID}/4000x3000.jpeg)`)!.matchAll(/<source type="image\/avif" srcset="([^"]+)"/g)].flatMap((match) => [...match[1]!.matchAll(/ (\d+)w/g)].map((width) => Number(width[1])));
    expect(widths).toContain(column);
    expect(widths).toContain(2 * column);
  });

  it("one narrower than every variant: its original alone, with its size", () => {
    expect(pictureOf(`![Icon](/images/${ID}/300x200.png)`)).toBe(`<img src="/images/${ID}/300x200.png" alt="Icon" width="300" height="200" loading="lazy" decoding="async">`);
  });

  it("an absolute URL under the app's origin stays absolute; a path becomes absolute when asked (feeds)", () => {
    const absolute = pictureOf(`![](${ORIGIN}/images/${ID}/1000x500.jpeg)`, { origin: ORIGIN })!;
    expect(absolute).toContain(`<source type="image/webp" srcset="${srcset("webp", [480, 664, 960], undefined, ORIGIN)}"`);
    expect(absolute).toContain(`<img src="${ORIGIN}/images/${ID}/1000x500.jpeg"`);
    expect(pictureOf(`![](/images/${ID}/1000x500.jpeg)`, { origin: ORIGIN, absoluteImageUrls: true })).toBe(absolute);
  });

  it.each([
    [`${ORIGIN}/images/${ID}/1000x500.jpeg`, {}],
    ["https://elsewhere.example/images/" + ID + "/1000x500.jpeg", { origin: ORIGIN }],
    [`https://blogs.example@elsewhere.example/images/${ID}/1000x500.jpeg`, { origin: ORIGIN }],
    [`${ORIGIN}/images/${ID}/1000x500.jpeg?size=big`, { origin: ORIGIN }],
    [`/images/${ID}/1000x500.jpeg#top`, { origin: ORIGIN }],
    [`/images/${ID}/1000x500.svg`, {}],
    [`/images/${ID}/500w.jpeg`, {}],
    [`//elsewhere.example/images/${ID}/1000x500.jpeg`, { origin: ORIGIN }],
  ])("%s (%j) is no image of ours: rendered as before", (url, options) => {
    expect(pictureOf(`![x](${url})`, options)).toBe(`<img src="${url.replace("&", "&#x26;")}" alt="x" loading="lazy" decoding="async">`);
  });
});

describe("what a source cannot inject", () => {
  it.each([
    [`<picture><source type="image/svg+xml" srcset="javascript:alert(1) 1w"><img src="x" srcset="javascript:alert(1) 1w" onerror="alert(1)"></picture>`],
    [`![x](</images/${ID}/1000x500.jpeg" onerror="alert(1)>)`],
    [`![x](/images/${ID}/1000x500.jpeg "t\\" onerror=\\"alert(1)")`],
    [`![x" onerror="alert(1)](/images/${ID}/1000x500.jpeg)`],
    [`![x](/images/${ID}/1000x500.jpeg?" srcset="javascript:alert(1) 1w)`],
    [`![x](javascript:alert(1))`],
    [`![x](${ORIGIN}/images/${ID}/1000x500.jpeg%22%20onerror=%22alert(1))`],
  ])("%s", (markdown) => {
    const html = markdownToHtml(markdown, { origin: ORIGIN });
    const attributes = [...html.matchAll(/<([a-z]+)([^>]*)>/g)].flatMap(([, tag, rest]) =>
      [...rest!.matchAll(/\s([^\s=]+)(?:="([^"]*)")?/g)].map(([, name, value = ""]) => ({ tag, name, value })),
    );
    for (const { tag, name, value } of attributes) {
      expect(["src", "alt", "title", "width", "height", "srcset", "sizes", "type", "loading", "decoding"], `${tag} ${name}`).toContain(name);
      if (name === "src" || name === "srcset") expect(value).not.toMatch(/javascript:|"/i);
      if (name === "type") expect(["image/avif", "image/webp"]).toContain(value);
      // Every srcset is one the renderer built: our files, at their widths.
      if (name === "srcset") {
        for (const candidate of value.split(", ")) expect(candidate).toMatch(new RegExp(`^(${ORIGIN})?/images/${ID}/(\\d+w|1000x500)\\.(jpeg|webp|avif) \\d+w$`));
      }
    }
  });

  it("raw <picture>, <source> and srcset in the source are dropped", () => {
    const html = markdownToHtml(`<picture><source srcset="/images/${ID}/480w.webp 480w"></picture>\n\n<img srcset="/a.png 1w" src="/a.png">`);
    expect(html).not.toMatch(/<picture|<source|srcset|<img/);
  });
});

describe("the reader's column", () => {
  it("is the width `sizes` describes: the page's max-width less its gutters", () => {
    const [, maxWidth, gutter] = /\.page\{max-width:([\d.]+)rem;[^}]*padding:[\d.]+rem ([\d.]+)rem/.exec(READER_CSS)!;
    expect(READER_COLUMN_SIZES).toBe(`(min-width: ${maxWidth}rem) ${Number(maxWidth) - 2 * Number(gutter)}rem, calc(100vw - ${2 * Number(gutter)}rem)`);
    expect(READER_CSS).toContain(".markdown img{max-width:100%;height:auto}");
  });
});
