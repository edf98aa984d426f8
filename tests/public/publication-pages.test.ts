// Every public page is its publication's (docs/publication.md): its header (logo, title, links),
// footer (Markdown, sanitized; social links; feeds), <title>, lang, time zone, favicon and accent,
// and its feeds, JSON-LD, Open Graph and share image are named after it; the app's own name is on
// none of them. The home features the newest post; an account with no public post yet has a
// friendly home (200), an unknown handle a 404. A settings change shows at the next request.
import { beforeAll, describe, expect, it } from "vitest";
import { contrastRatio, PAGE_BACKGROUNDS } from "~/server/public-site/accent";
import { publicationHref, socialLinkName } from "~/shared/publication";
import { apiBaseUrl, createTestAccount, db, getPath, seedBlogs, seedImage, type TestAccount } from "../support/api";
import { signIn, trpc } from "../support/dashboard";

const PRODUCT_NAME = /Blog Manager|Create account/i;

async function text(path: string): Promise<{ status: number; body: string; headers: Headers }> {
  const response = await getPath(path);
  return { status: response.status, body: await response.text(), headers: response.headers };
}

/** Changes the publication as its owner's dashboard does. */
async function updatePublication(cookie: string, input: Record<string, unknown>): Promise<void> {
  const answer = await trpc(cookie, "publication.update", input);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

let account: TestAccount;
let cookie: string;
let slugs: { late: string; first: string };
let logo: string;
let icon: string;
let origin: string;

beforeAll(async () => {
  origin = new URL(apiBaseUrl()).origin;
  account = await createTestAccount();
  cookie = await signIn(account);
  const [first, late] = await seedBlogs(account.id, [
    { title: "First Post", blogSlug: "first-post", isPublic: true, description: "Where it starts", content: "word ".repeat(700), tags: ["Notes"] },
    { title: "Late Night Post", blogSlug: "late-night", isPublic: true, description: "Written late", content: "Short." },
  ]);
  // 23:30 UTC: already the next day in Tokyo.
  await db().blog.update({ where: { id: first! }, data: { publishedAt: new Date("2026-03-10T10:00:00Z") } });
  await db().blog.update({ where: { id: late! }, data: { publishedAt: new Date("2026-03-14T23:30:00Z") } });
  slugs = { late: "late-night", first: "first-post" };
  logo = await seedImage(account.id, { width: 400, height: 100, format: "png" });
  icon = await seedImage(account.id, { width: 512, height: 512, format: "png" });
  await updatePublication(cookie, {
    title: "The Night Shift",
    description: "Notes written after dark",
    logo,
    icon,
    accentColor: "#ffd700",
    language: "ja",
    timezone: "Asia/Tokyo",
    navigation: [
      { label: "About", url: "/about-us" },
      { label: "Notes", url: "/tags/notes" },
      { label: "Elsewhere", url: "https://example.org/x" },
    ],
    socialLinks: ["https://mastodon.social/@night", "https://github.com/night", "https://x.com/night", "https://night.example.net/me"],
    footer: "Made **at night**. <script>alert(1)</script>[Contact](https://example.org/contact)",
  });
}, 60_000);

describe("publicationHref", () => {
  it("puts the publication's paths under its home, leaves web addresses alone", () => {
    expect(publicationHref("https://app.test/ann", "/about")).toBe("https://app.test/ann/about");
    expect(publicationHref("https://app.test/ann", "/")).toBe("https://app.test/ann");
    expect(publicationHref("https://app.test/ann", "/?page=2")).toBe("https://app.test/ann?page=2");
    expect(publicationHref("https://blog.example.com", "/about")).toBe("https://blog.example.com/about");
    expect(publicationHref("https://blog.example.com", "/")).toBe("https://blog.example.com");
    expect(publicationHref("https://app.test/ann", "https://example.org/x")).toBe("https://example.org/x");
  });

  it("names social links after their network, else their host", () => {
    expect(["https://mastodon.social/@a", "https://hachyderm.io/@a", "https://github.com/a", "https://twitter.com/a", "https://www.example.net/"].map(socialLinkName)).toEqual([
      "Mastodon",
      "Mastodon",
      "GitHub",
      "X",
      "example.net",
    ]);
  });
});

describe("a publication's pages", () => {
  it("titles: the home alone, a post and a tag before an en dash", async () => {
    expect((await text(`/${account.handle}`)).body).toContain("<title>The Night Shift</title>");
    expect((await text(`/${account.handle}/${slugs.late}`)).body).toContain("<title>Late Night Post – The Night Shift</title>");
    expect((await text(`/${account.handle}/tags/notes`)).body).toContain("<title>Notes – The Night Shift</title>");
  });

  it("lang, dates in its time zone and language", async () => {
    const home = (await text(`/${account.handle}`)).body;
    expect(home).toMatch(/^<!DOCTYPE html><html lang="ja">/);
    // 2026-03-14T23:30Z is 15 March in Tokyo.
    expect(home).toContain(`<time dateTime="2026-03-14T23:30:00.000Z">2026年3月15日</time>`);
    const post = (await text(`/${account.handle}/${slugs.late}`)).body;
    expect(post).toContain("2026年3月15日");
  });

  it("header: logo (sized) and title linking home, navigation resolved under the home", async () => {
    const { body } = await text(`/${account.handle}/${slugs.first}`);
    const home = `${origin}/${account.handle}`;
    expect(body).toContain(`<a class="brand" href="${home}"><img src="/images/${logo}/`);
    expect(body).toMatch(/<img src="[^"]+" alt="" width="160" height="40"\/><span>The Night Shift<\/span>/);
    expect(body).toContain(`<a href="${home}/about-us">About</a>`);
    expect(body).toContain(`<a href="${home}/tags/notes">Notes</a>`);
    expect(body).toContain(`<a href="https://example.org/x">Elsewhere</a>`);
  });

  it("footer: Markdown sanitized, social links named, feeds", async () => {
    const { body } = await text(`/${account.handle}`);
    const footer = /<footer class="site-footer">[\s\S]*<\/footer>/.exec(body)![0];
    expect(footer).toContain("<strong>at night</strong>");
    expect(footer).toContain(`<a href="https://example.org/contact">Contact</a>`);
    expect(footer).not.toContain("<script");
    for (const name of ["Mastodon", "GitHub", "X", "night.example.net"]) expect(footer).toContain(`rel="me">${name}</a>`);
    expect(footer).toContain(`href="${origin}/${account.handle}/feed.xml">RSS</a>`);
  });

  it("favicon from its icon's small file; none of the app's without one", async () => {
    expect((await text(`/${account.handle}`)).body).toContain(`<link rel="icon" type="image/png" href="/images/${icon}/480w.png"/>`);
    const plain = await createTestAccount();
    expect((await text(`/${plain.handle}`)).body).toContain(`<link rel="icon" href="data:,"/>`);
  });

  it("accent: a second stylesheet the CSP allows, readable (4.5:1) in both schemes", async () => {
    const { body, headers } = await text(`/${account.handle}`);
    const styles = [...body.matchAll(/<style>([^<]*)<\/style>/g)].map((match) => match[1]!);
    expect(styles).toHaveLength(2);
    const accent = styles[1]!;
    const [light, dark] = [...accent.matchAll(/--link:(#[0-9a-f]{6})/g)].map((match) => match[1]!);
    // Gold is too light on white: darkened; readable as it is on the dark background.
    expect(light).not.toBe("#ffd700");
    expect(contrastRatio(light!, PAGE_BACKGROUNDS.light)).toBeGreaterThanOrEqual(4.5);
    expect(dark).toBe("#ffd700");
    expect(contrastRatio(dark!, PAGE_BACKGROUNDS.dark)).toBeGreaterThanOrEqual(4.5);
    const { createHash } = await import("node:crypto");
    expect(headers.get("content-security-policy")).toContain(`'sha256-${createHash("sha256").update(accent).digest("base64")}'`);
  });

  it("feeds, JSON-LD, Open Graph and share image are named after it", async () => {
    const rss = (await text(`/${account.handle}/feed.xml`)).body;
    expect(rss).toContain("<title>The Night Shift</title>");
    expect(rss).toContain("<description>Notes written after dark</description>");
    expect(rss).toContain("<language>ja</language>");
    expect((await text(`/${account.handle}/atom.xml`)).body).toContain("<title>The Night Shift</title>");
    const json = JSON.parse((await text(`/${account.handle}/feed.json`)).body) as { title: string; description: string; language: string };
    expect(json).toMatchObject({ title: "The Night Shift", description: "Notes written after dark", language: "ja" });
    expect((await text(`/${account.handle}/tags/notes/feed.json`)).body).toContain(`"title": "Notes – The Night Shift"`);
    const post = (await text(`/${account.handle}/${slugs.late}`)).body;
    expect(post).toContain(`<meta property="og:site_name" content="The Night Shift"/>`);
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(post)![1]!) as { publisher: { name: string } };
    expect(jsonLd.publisher.name).toBe("The Night Shift");
  });

  it("never names the app: pages, feeds, sitemaps, JSON-LD and Open Graph", async () => {
    const plain = await createTestAccount();
    const paths = [
      `/${account.handle}`,
      `/${account.handle}?page=1`,
      `/${account.handle}/${slugs.late}`,
      `/${account.handle}/tags/notes`,
      `/${account.handle}/feed.xml`,
      `/${account.handle}/atom.xml`,
      `/${account.handle}/feed.json`,
      `/${account.handle}/sitemap.xml`,
      `/${account.handle}/no-such-post`,
      `/${plain.handle}`,
      "/no-such-handle-at-all",
    ];
    for (const path of paths) expect((await text(path)).body, path).not.toMatch(PRODUCT_NAME);
  });

  it("a 404 under its address is its own (header, link home, uncached); any other is plain", async () => {
    for (const path of [`/${account.handle}/no-such-post`, `/${account.handle}/tags/no-such-tag`, `/${account.handle}?page=9`]) {
      const answer = await text(path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.body).toContain("<title>Not found – The Night Shift</title>");
      expect(answer.body).toContain(`<a href="${origin}/${account.handle}">Go to the home page of The Night Shift</a>`);
    }
    const plain = await text("/no-such-handle-at-all/post");
    expect(plain.status).toBe(404);
    expect(plain.body).toContain("<title>Not found</title>");
    expect(plain.body).not.toContain("<header");
  });

  it("home: the newest post featured, then cards with date and reading time", async () => {
    const { body } = await text(`/${account.handle}`);
    expect(body).toContain(`<p class="lede">Notes written after dark</p>`);
    const featured = /<article class="featured">[\s\S]*?<\/article>/.exec(body)![0];
    expect(featured).toContain("Late Night Post");
    expect(featured).toContain("1 min read");
    const cards = /<ul class="cards">[\s\S]*?<\/ul>/.exec(body)![0];
    expect(cards).toContain("First Post");
    expect(cards).toContain("Where it starts");
    // 700 words at 230 a minute.
    expect(cards).toContain("4 min read");
    // A tag page: cards only.
    expect((await text(`/${account.handle}/tags/notes`)).body).not.toContain(`class="featured"`);
  });
});

describe("an account with no public post yet", () => {
  it("has a home (200) with its publication's header and a friendly note; an unknown handle is a 404", async () => {
    const empty = await createTestAccount();
    const home = await text(`/${empty.handle}`);
    expect(home.status).toBe(200);
    expect(home.body).toContain("No posts yet");
    expect(home.body).toContain(`<a class="brand" href="${origin}/${empty.handle}">`);
    expect(home.headers.get("last-modified")).toBeTruthy();
    // Its other addresses stay 404.
    for (const path of [`/${empty.handle}?page=2`, `/${empty.handle}/feed.xml`, `/${empty.handle}/tags/x`, `/${empty.handle}/sitemap.xml`]) {
      expect((await getPath(path)).status, path).toBe(404);
    }
    expect((await getPath(`/nobody-${Date.now().toString(36)}`)).status).toBe(404);
  });

  it("shows a new name or setting on the next request, cached or not", async () => {
    const empty = await createTestAccount();
    for (let i = 0; i < 2; i++) await text(`/${empty.handle}`);
    await db().user.update({ where: { id: empty.id }, data: { name: "Renamed Owner" } });
    expect((await text(`/${empty.handle}`)).body).toContain("<title>Renamed Owner</title>");
    await updatePublication(await signIn(empty), { title: "Fresh Start" });
    expect((await text(`/${empty.handle}`)).body).toContain("<title>Fresh Start</title>");
  });
});

describe("a settings change shows at the next request", () => {
  it("on a cached page, feed and share image", async () => {
    const owner = await createTestAccount();
    const ownerCookie = await signIn(owner);
    await seedBlogs(owner.id, [{ title: "Only Post", blogSlug: "only-post", isPublic: true }]);
    const paths = { page: `/${owner.handle}/only-post`, feed: `/${owner.handle}/feed.json`, image: `/${owner.handle}/only-post/share-image.png` };
    const before: Record<string, string> = {};
    for (const [name, path] of Object.entries(paths)) {
      for (let i = 0; i < 2; i++) {
        const response = await getPath(path);
        expect(response.status).toBe(200);
        before[name] = response.headers.get("etag")!;
      }
    }
    await updatePublication(ownerCookie, { title: "Renamed Publication" });
    expect((await text(paths.page)).body).toContain("<title>Only Post – Renamed Publication</title>");
    expect(JSON.parse((await text(paths.feed)).body).title).toBe("Renamed Publication");
    expect((await getPath(paths.image)).headers.get("etag")).not.toBe(before.image);
  }, 60_000);
});
