// The public pages over HTTP: /{handle} (paginated) and /{handle}/{blogSlug} (Markdown rendered
// safely, GitHub-flavoured). They are cached (docs/public-blog.md, The cache), so every test of a
// change reads the page twice first (the second from the cache), writes, and expects the change:
// on the very next request when the server made it (the API, the dashboard); as soon as
// PostgreSQL's notice reaches the server when another process did (the CLI, plain SQL), which
// takes milliseconds: polled here for up to OTHER_WRITERS_MS.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateBlog } from "~/server/blogs/update-blog";
import { CARD_COVER_SIZES, READER_COLUMN_SIZES } from "~/shared/responsive-images";
import { apiBaseUrl, call, createTestAccount, db, seedBlogs, seedImage, type TestAccount } from "../support/api";
import { runCli } from "../support/cli";
import { signIn, trpc } from "../support/dashboard";

interface Page {
  status: number;
  html: string;
  /** The page's <main> (the rendered content, without Next's payload scripts). */
  main: string;
}

/** Writes by another process show once their notice arrives: well within this, and within 60 s (decisions) at worst. */
const OTHER_WRITERS_MS = 5_000;

/** The page's <main> once it contains `text`, polled (a write by another process). */
async function eventuallyShows(path: string, text: string): Promise<void> {
  await expect.poll(async () => (await page(path)).main, { timeout: OTHER_WRITERS_MS, interval: 20 }).toContain(text);
}

async function page(path: string): Promise<Page> {
  const response = await fetch(new URL(path, apiBaseUrl()));
  const html = await response.text();
  return { status: response.status, html, main: /<main[\s\S]*?<\/main>/.exec(html)?.[0] ?? "" };
}

/** Reads a page twice (filling and then hitting the cache) and checks it shows `text`. */
async function cachedPageShows(path: string, text: string): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const { status, main } = await page(path);
    expect(status).toBe(200);
    expect(main).toContain(text);
  }
}

async function createPublicBlog(account: TestAccount, fields: Record<string, unknown>): Promise<{ id: string; blogSlug: string }> {
  const created = await call("/blogs", {
    key: account.key,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ isPublic: true, ...fields }),
  });
  expect(created.status).toBe(201);
  return created.json.data.blog;
}

/** The server's origin: the pages' links are absolute, under their publication's home. */
const appOrigin = () => new URL(apiBaseUrl()).origin;

let account: TestAccount;
beforeAll(async () => {
  account = await createTestAccount();
});

describe("a change is on the public pages at the next request", () => {
  it("after an API update (title on the index, content on the blog page)", async () => {
    const blog = await createPublicBlog(account, { title: "Api Before", content: "Body before" });
    await cachedPageShows(`/${account.handle}`, "Api Before");
    await cachedPageShows(`/${account.handle}/${blog.blogSlug}`, "Body before");

    const updated = await call(`/blogs/${blog.id}`, {
      key: account.key,
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "Api After", content: "Body after" }),
    });
    expect(updated.status).toBe(200);
    const index = await page(`/${account.handle}`);
    expect(index.main).toContain("Api After");
    expect(index.main).not.toContain("Api Before");
    const post = await page(`/${account.handle}/${blog.blogSlug}`);
    expect(post.main).toContain("Body after");
    expect(post.main).not.toContain("Body before");
  });

  it("after the dashboard's update (and a blog made private is a 404 at once)", async () => {
    const blog = await createPublicBlog(account, { title: "Dash Post", content: "Dashboard before" });
    const path = `/${account.handle}/${blog.blogSlug}`;
    const cookie = await signIn(account);
    await cachedPageShows(path, "Dashboard before");

    expect((await trpc(cookie, "blogs.update", { blogId: blog.id, content: "Dashboard after" })).status).toBe(200);
    expect((await page(path)).main).toContain("Dashboard after");

    expect((await trpc(cookie, "blogs.update", { blogId: blog.id, isPublic: false })).status).toBe(200);
    expect((await page(path)).status).toBe(404);
    expect((await page(`/${account.handle}`)).main).not.toContain("Dash Post");
  });

  it("after a domain function's update in another process (as a script would make it)", async () => {
    const blog = await createPublicBlog(account, { title: "Script Post", content: "Script before" });
    const path = `/${account.handle}/${blog.blogSlug}`;
    await cachedPageShows(path, "Script before");
    await updateBlog(db(), { accountId: account.id, apiAccessOnly: false }, blog.id, { content: "Script after" }, { source: { by: "owner" } });
    await eventuallyShows(path, "Script after");
  });

  it("after a CLI import, a process of its own", async () => {
    const owner = await createTestAccount();
    await createPublicBlog(owner, { title: "Already There" });
    await cachedPageShows(`/${owner.handle}`, "Already There");

    const dir = await mkdtemp(join(tmpdir(), "blogmgr-public-"));
    try {
      const file = join(dir, "blogs.json");
      await writeFile(file, JSON.stringify([{ title: "Imported Post", blogSlug: "imported-post", content: "Imported body", isPublic: true }]));
      const result = await runCli(["blogs", "import", "--email", owner.email, "--file", file]);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ imported: 1 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    await eventuallyShows(`/${owner.handle}`, "Imported Post");
    expect((await page(`/${owner.handle}/imported-post`)).main).toContain("Imported body");
  });

  it("after a raw SQL UPDATE of a blog, and of the owner's name", async () => {
    const blog = await createPublicBlog(account, { title: "Sql Post", content: "Sql before" });
    const path = `/${account.handle}/${blog.blogSlug}`;
    await cachedPageShows(path, "Sql before");

    await db().$executeRaw`UPDATE "blog" SET "content" = 'Sql after' WHERE "id" = ${blog.id}`;
    await eventuallyShows(path, "Sql after");

    await db().$executeRaw`UPDATE "user" SET "name" = 'Renamed Owner' WHERE "id" = ${account.id}`;
    await eventuallyShows(path, "Renamed Owner");
    await eventuallyShows(`/${account.handle}`, "Renamed Owner");
  });

  it("is served from the cache until the content version moves", async () => {
    // A write that bypasses the triggers (only a superuser can) does not move the version: the
    // cached page stays, which shows the page is cached and keyed by that version alone.
    const blog = await createPublicBlog(account, { title: "Cached Post", content: "Cached body" });
    const path = `/${account.handle}/${blog.blogSlug}`;
    await cachedPageShows(path, "Cached body");
    await db().$transaction([
      db().$executeRaw`SET LOCAL session_replication_role = replica`,
      db().$executeRaw`UPDATE "blog" SET "content" = 'Unseen body' WHERE "id" = ${blog.id}`,
    ]);
    expect((await page(path)).main).toContain("Cached body");

    await db().$executeRaw`UPDATE "blog" SET "title" = 'Cached Post 2' WHERE "id" = ${blog.id}`;
    await eventuallyShows(path, "Unseen body");
  });
});

describe("/{handle}/{blogSlug}", () => {
  it("is a 404 for a blog that is not public, an unknown slug or an unknown handle", async () => {
    const [privateId] = await seedBlogs(account.id, [{ blogSlug: "private-draft", isPublic: false, title: "Private Draft" }]);
    expect(privateId).toBeDefined();
    for (const path of [`/${account.handle}/private-draft`, `/${account.handle}/no-such-blog`, "/no-such-handle-xyz/private-draft"]) {
      const { status, html } = await page(path);
      expect(status, path).toBe(404);
      expect(html).not.toContain("Private Draft");
    }
  });

  it("renders GitHub-flavoured Markdown: tables, strikethrough, task lists", async () => {
    const content = "| Name | Count |\n|---|---:|\n| apples | 3 |\n\n~~gone~~\n\n- [x] done\n- [ ] todo\n";
    const blog = await createPublicBlog(account, { title: "Gfm Post", content });
    const { main } = await page(`/${account.handle}/${blog.blogSlug}`);
    expect(main).toMatch(/<table>[\s\S]*<th>Name<\/th>[\s\S]*<td>apples<\/td>[\s\S]*<\/table>/);
    expect(main).toContain("<del>gone</del>");
    // Each checkbox named by its task (an unnamed form control fails WCAG 4.1.2).
    expect(main).toContain('<input type="checkbox" checked disabled aria-label="done"> done');
    expect(main).toContain('<input type="checkbox" disabled aria-label="todo"> todo');
  });

  it("fetches a post's first image first (no cover above it), the rest lazily, all decoded off the main thread", async () => {
    const blog = await createPublicBlog(account, { title: "Image Post", content: "![A diagram](https://example.org/diagram.png)\n\n![A chart](https://example.org/chart.png)" });
    const { main } = await page(`/${account.handle}/${blog.blogSlug}`);
    expect(main).toContain('<img src="https://example.org/diagram.png" alt="A diagram" fetchpriority="high" loading="eager" decoding="async">');
    expect(main).toContain('<img src="https://example.org/chart.png" alt="A chart" loading="lazy" decoding="async">');
  });

  it("highlights code when rendering, with classes the page's one stylesheet defines, and anchors its headings", async () => {
    const content = '## Setup\n\n```ts\nconst greeting: string = "<b>hi</b>"; // says hi\n```\n\n## Setup\n\n```klingon\nqapla\n```';
    const blog = await createPublicBlog(account, { title: "Code Post", content });
    const { html, main } = await page(`/${account.handle}/${blog.blogSlug}`);
    const code = /<pre><code class="language-ts">([\s\S]*?)<\/code><\/pre>/.exec(main)?.[1];
    expect(code).toMatch(/^<span class="hl-l\d+ hl-d\d+">const <\/span>/);
    expect(code).toContain("&#x3C;b>hi&#x3C;/b>");
    expect(main).not.toMatch(/ style=/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    for (const name of new Set([...code!.matchAll(/hl-[a-z]\d+/g)].map(([name]) => name))) expect(style).toContain(`.${name}{color:#`);
    expect(main).toContain('<pre><code class="language-klingon">qapla\n</code></pre>');
    expect(main).toContain('<h2 id="setup">Setup<a class="heading-anchor" href="#setup" aria-label="Link to section Setup">#</a></h2>');
    expect(main).toContain('<h2 id="setup-1">Setup<a class="heading-anchor" href="#setup-1" aria-label="Link to section Setup">#</a></h2>');
  });

  it("does not render raw HTML or script links from the Markdown", async () => {
    const content = '<script>alert(1)</script>\n\nText <img src="x" onerror="alert(1)"> here\n\n[click me](javascript:alert(1))\n\n<div onclick="alert(1)">div</div>';
    const blog = await createPublicBlog(account, { title: "Xss Post", content });
    const { status, html, main } = await page(`/${account.handle}/${blog.blogSlug}`);
    expect(status).toBe(200);
    expect(main).toContain("click me");
    expect(html).not.toContain("alert(1)");
    expect(html).not.toContain("onerror");
    expect(main).not.toContain("javascript:");
  });
});

describe("images of our own (docs/public-blog.md, Reading)", () => {
  let owner: TestAccount;
  let origin: string;
  beforeAll(async () => {
    owner = await createTestAccount();
    origin = new URL(apiBaseUrl()).origin;
  });

  // React writes the covers' srcSet and fetchPriority in its own case: HTML's attribute names are case-insensitive.
  const meta = (html: string, name: string) => new RegExp(`<meta (?:property|name)="${name}" content="([^"]*)"/>`).exec(html)?.[1];

  it("in the Markdown: a <picture> of the variants, sizes of the column, width and height, lazy; absolute ones under the origin too", async () => {
    const image = await seedImage(owner.id, { width: 1200, height: 800, format: "png" });
    const content = `![A chart](/images/${image}/1200x800.png)\n\n![Again](${origin}/images/${image}/1200x800.png)`;
    const blog = await createPublicBlog(owner, { title: "Markdown Images", content });
    const { main } = await page(`/${owner.handle}/${blog.blogSlug}`);
    const pictures = [...main.matchAll(/<picture>[\s\S]*?<\/picture>/g)].map(([picture]) => picture);
    expect(pictures).toHaveLength(2);
    // The first, with no cover above it, is the page's largest paint: fetched first (docs/public-blog.md, Reading).
    const firstHints = 'fetchpriority="high" loading="eager" decoding="async"';
    for (const [picture, base, hints] of [[pictures[0]!, "", firstHints], [pictures[1]!, origin, 'loading="lazy" decoding="async"']] as const) {
      const files = (format: string) => [480, 664, 960].map((width) => `${base}/images/${image}/${width}w.${format} ${width}w`).join(", ");
      expect(picture).toContain(`<source type="image/avif" srcset="${files("avif")}" sizes="(min-width: 44rem) 41.5rem, calc(100vw - 2.5rem)">`);
      expect(picture).toContain(`<source type="image/webp" srcset="${files("webp")}"`);
      expect(picture).toMatch(new RegExp(`<img src="${base}/images/${image}/1200x800.png" alt="(A chart|Again)" width="1200" height="800" srcset="${files("png")}, ${base}/images/${image}/1200x800.png 1200w" sizes="[^"]+" ${hints}>`));
    }
  });

  it("a cover: above the title, decorative, fetched first; the share image and its size in the cards and JSON-LD", async () => {
    const cover = await seedImage(owner.id, { width: 2000, height: 1000, format: "jpeg" });
    const blog = await createPublicBlog(owner, { title: "Covered Post", coverImage: cover });
    const { html, main } = await page(`/${owner.handle}/${blog.blogSlug}`);
    const picture = /<article><picture class="cover">([\s\S]*?)<\/picture><header class="post"><h1>Covered Post<\/h1>/.exec(main)?.[1];
    expect(picture).toContain(`<source type="image/avif" srcSet="${[480, 664, 960, 1328, 1600].map((width) => `/images/${cover}/${width}w.avif ${width}w`).join(", ")}"`);
    const img = /<img [^>]*>/.exec(picture!)![0];
    expect(img).toContain(`src="/images/${cover}/2000x1000.jpeg"`);
    expect(img).toContain('width="2000" height="1000"');
    expect(img).toContain(`srcSet="${[480, 664, 960, 1328, 1600].map((width) => `/images/${cover}/${width}w.jpeg ${width}w`).join(", ")}, /images/${cover}/2000x1000.jpeg 2000w"`);
    expect(img).toContain('alt=""');
    expect(img).toContain('fetchPriority="high" loading="eager" decoding="async"');

    const url = `${origin}/images/${cover}/2000x1000.jpeg`;
    expect([meta(html, "og:image"), meta(html, "og:image:width"), meta(html, "og:image:height"), meta(html, "twitter:image")]).toEqual([url, "2000", "1000", url]);
    expect(JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!).image).toEqual([url]);
  });

  it("an AVIF cover is shown, but the cards keep the generated share image (they show no AVIF)", async () => {
    const cover = await seedImage(owner.id, { width: 1000, height: 500, format: "avif" });
    const blog = await createPublicBlog(owner, { title: "Avif Cover", coverImage: cover });
    const { html, main } = await page(`/${owner.handle}/${blog.blogSlug}`);
    expect(main).toContain(`<img src="/images/${cover}/1000x500.avif"`);
    const shareImage = `${origin}/${owner.handle}/${blog.blogSlug}/share-image.png`;
    expect([meta(html, "og:image"), meta(html, "og:image:width"), meta(html, "og:image:height"), meta(html, "twitter:image")]).toEqual([shareImage, "1200", "630", shareImage]);
  });

  it("on the home, the newest blog featured with its cover loaded first; on tag cards, a cover across the card; the card image is the newest blog's cover", async () => {
    const account = await createTestAccount();
    const cover = await seedImage(account.id, { width: 800, height: 600, format: "webp" });
    await createPublicBlog(account, { title: "Plain Card", tags: ["Photos"] });
    const covered = await createPublicBlog(account, { title: "Cover Card", tags: ["Photos"], coverImage: cover });
    const home = await page(`/${account.handle}`);
    const featured = /<article class="featured">[\s\S]*?<\/article>/.exec(home.main)![0];
    expect(featured).toContain(`<img src="/images/${cover}/800x600.webp" width="800" height="600"`);
    expect(featured).toContain(`sizes="${READER_COLUMN_SIZES}" alt="" fetchPriority="high" loading="eager" decoding="async"/>`);
    expect(featured).toContain(`<h2><a href="${origin}/${account.handle}/${covered.blogSlug}">Cover Card</a></h2>`);
    expect(home.main.split("<li>").slice(1)).toHaveLength(1);
    const tagPage = await page(`/${account.handle}/tags/photos`);
    const cards = tagPage.main.split("<li>").slice(1);
    expect(cards).toHaveLength(2);
    expect(cards[0]).toContain(
      `<picture class="card-cover"><source type="image/avif" srcSet="/images/${cover}/480w.avif 480w, /images/${cover}/664w.avif 664w" sizes="${CARD_COVER_SIZES}"/>` +
        `<img src="/images/${cover}/800x600.webp" width="800" height="600" srcSet="/images/${cover}/480w.webp 480w, /images/${cover}/664w.webp 664w, /images/${cover}/800x600.webp 800w" sizes="${CARD_COVER_SIZES}" alt="" fetchPriority="high" loading="eager" decoding="async"/></picture>` +
        `<h2><a href="${origin}/${account.handle}/${covered.blogSlug}">Cover Card</a></h2>`,
    );
    expect(cards[1]).not.toContain("<picture");
    for (const { html } of [home, tagPage]) expect(meta(html, "og:image")).toBe(`${origin}/images/${cover}/800x600.webp`);
  });

  it("a cover whose image is deleted leaves every page at once; another account's image is never shown", async () => {
    const cover = await seedImage(owner.id);
    const blog = await createPublicBlog(owner, { title: "Losing Cover", coverImage: cover });
    const path = `/${owner.handle}/${blog.blogSlug}`;
    await cachedPageShows(path, `/images/${cover}/2000x1000.jpeg`);
    await cachedPageShows(`/${owner.handle}`, `/images/${cover}/2000x1000.jpeg`);

    // The foreign key clears the cover: an update of the blog, which moves the account's public content version.
    await db().image.delete({ where: { id: cover } });
    await eventuallyShows(path, "Losing Cover");
    await expect.poll(async () => (await page(path)).main, { timeout: OTHER_WRITERS_MS, interval: 20 }).not.toContain("<picture");
    expect((await page(`/${owner.handle}`)).main).not.toContain(`/images/${cover}/`);
    expect((await page(path)).html).toContain(`content="${origin}${path}/share-image.png"`);

    // Only the API checks the account: a cover written by plain SQL with another account's image shows nothing.
    const stranger = await createTestAccount();
    const theirs = await seedImage(stranger.id);
    await db().$executeRaw`UPDATE "blog" SET "coverImageId" = ${theirs}, "title" = 'Stranger Cover' WHERE "id" = ${blog.id}`;
    await eventuallyShows(path, "Stranger Cover");
    expect((await page(path)).html).not.toContain(theirs);
  });
});

describe("/{handle} pagination", () => {
  let owner: TestAccount;
  const titles = Array.from({ length: 45 }, (_, i) => `Paged ${String(i + 1).padStart(2, "0")}`);
  const shown = (main: string) => [...main.matchAll(/Paged \d\d/g)].map((m) => m[0]);
  const newestFirst = [...titles].reverse();

  beforeAll(async () => {
    owner = await createTestAccount();
    // 45 public blogs a minute apart, with private ones in between that must not show.
    await seedBlogs(owner.id, titles.map((title, i) => ({ title, isPublic: true, createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000) })));
    await seedBlogs(owner.id, [0, 10, 30].map((i) => ({ title: `Hidden ${i}`, isPublic: false, createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000 + 1) })));
  });

  it("shows 20 a page, newest first, with links to older and newer pages", async () => {
    const first = await page(`/${owner.handle}`);
    expect(first.status).toBe(200);
    expect(shown(first.main)).toEqual(newestFirst.slice(0, 20));
    expect(first.main).toContain(`href="${appOrigin()}/${owner.handle}?page=2"`);
    expect(first.main).not.toContain("Newer");
    expect(first.main).not.toContain("Hidden");

    const second = await page(`/${owner.handle}?page=2`);
    expect(second.status).toBe(200);
    expect(shown(second.main)).toEqual(newestFirst.slice(20, 40));
    expect(second.main).toContain(`href="${appOrigin()}/${owner.handle}"`);
    expect(second.main).toContain(`href="${appOrigin()}/${owner.handle}?page=3"`);

    const third = await page(`/${owner.handle}?page=3`);
    expect(third.status).toBe(200);
    expect(shown(third.main)).toEqual(newestFirst.slice(40));
    expect(third.main).toContain(`href="${appOrigin()}/${owner.handle}?page=2"`);
    expect(third.main).not.toContain("?page=4");
    expect(third.main).not.toContain("Older");

    expect((await page(`/${owner.handle}?page=1`)).main).toBe(first.main);
  });

  it("answers 404, never a 500, for a page past the end or a page that is not a page number", async () => {
    for (const query of ["page=4", "page=0", "page=-1", "page=abc", "page=2.5", "page=", "page=1e3", "page=99999999999999999999", "page=1&page=2"]) {
      const { status } = await page(`/${owner.handle}?${query}`);
      expect(status, query).toBe(404);
    }
  });

  it("an account with nothing public yet: its home says so (200), its drafts unseen; an unknown handle is a 404", async () => {
    const unknown = await page(`/nobody-${Date.now().toString(36)}`);
    expect(unknown.status).toBe(404);
    const empty = await createTestAccount();
    const hidden = await createTestAccount();
    await seedBlogs(hidden.id, [{ title: "Private draft", isPublic: false }]);
    for (const owner of [empty, hidden]) {
      const answer = await page(`/${owner.handle}`);
      expect(answer.status).toBe(200);
      expect(answer.main).toContain("No posts yet");
      expect(answer.html).not.toContain("Private draft");
    }
  });
});

afterAll(() => db().$disconnect());
