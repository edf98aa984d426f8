import { describe, expect, it } from "vitest";
import { parsePublicRoute } from "~/server/public-site/routes";

const parse = (url: string) => {
  const { pathname, searchParams } = new URL(url, "http://x");
  return parsePublicRoute(pathname, searchParams);
};

describe("parsePublicRoute", () => {
  it("names each public address", () => {
    expect(parse("/robots.txt")).toEqual({ kind: "robots" });
    expect(parse("/sitemap.xml")).toEqual({ kind: "sitemapIndex" });
    expect(parse("/preview/abc")).toEqual({ kind: "preview", token: "abc" });
    expect(parse("/jane-doe")).toEqual({ kind: "index", handle: "jane-doe", page: 1 });
    expect(parse("/jane-doe?page=2")).toEqual({ kind: "index", handle: "jane-doe", page: 2 });
    expect(parse("/jane-doe?page=100000&utm_source=x")).toEqual({ kind: "index", handle: "jane-doe", page: 100000 });
    expect(parse("/jane-doe/hello-world")).toEqual({ kind: "post", handle: "jane-doe", blogSlug: "hello-world" });
    expect(parse("/jane-doe/hello-world/share-image.png")).toEqual({ kind: "shareImage", handle: "jane-doe", blogSlug: "hello-world" });
    expect(parse("/jane-doe/feed.xml")).toEqual({ kind: "feed", handle: "jane-doe", format: "rss" });
    expect(parse("/jane-doe/atom.xml")).toEqual({ kind: "feed", handle: "jane-doe", format: "atom" });
    expect(parse("/jane-doe/feed.json")).toEqual({ kind: "feed", handle: "jane-doe", format: "json" });
    expect(parse("/jane-doe/sitemap.xml")).toEqual({ kind: "sitemap", handle: "jane-doe" });
    expect(parse("/jane-doe/tags/next-js")).toEqual({ kind: "index", handle: "jane-doe", tagSlug: "next-js", page: 1 });
    expect(parse("/jane-doe/tags/next-js?page=3")).toEqual({ kind: "index", handle: "jane-doe", tagSlug: "next-js", page: 3 });
    expect(parse("/jane-doe/tags/next-js/feed.json")).toEqual({ kind: "feed", handle: "jane-doe", format: "json", tagSlug: "next-js" });
    expect(parse("/jane-doe/subscribe")).toEqual({ kind: "subscribe", handle: "jane-doe" });
    expect(parse("/jane-doe/subscribe/confirm?token=abc")).toEqual({ kind: "subscribeConfirm", handle: "jane-doe", token: "abc" });
    expect(parse("/jane-doe/subscribe/confirm")).toEqual({ kind: "subscribeConfirm", handle: "jane-doe", token: "" });
    expect(parse("/jane-doe/unsubscribe?token=x-y_z")).toEqual({ kind: "unsubscribe", handle: "jane-doe", token: "x-y_z" });
    expect(parsePublicRoute("/unsubscribe", new URLSearchParams("token=abc"), { handle: "jane-doe" })).toEqual({ kind: "unsubscribe", handle: "jane-doe", token: "abc" });
    expect(parsePublicRoute("/subscribe/confirm", new URLSearchParams("token=abc"), { handle: "jane-doe" })).toEqual({ kind: "subscribeConfirm", handle: "jane-doe", token: "abc" });
  });

  it("leaves the app's own addresses to the app: reserved or invalid handles, Next's files, trailing slashes", () => {
    for (const url of ["/", "/dashboard", "/dashboard/keys", "/api/v1/blogs", "/api/public", "/sign-in", "/_next/static/x.js", "/favicon.ico", "/ab", "/Jane", "/jane-doe/", "/jane_doe"]) {
      expect(parse(url), url).toBeNull();
    }
  });

  it("keeps malformed addresses under a handle as the public site's, naming nothing (404)", () => {
    for (const url of ["/jane-doe/Hello", "/jane-doe/hello/other", "/jane-doe/subscribe/other", "/jane-doe/unsubscribe/x", "/jane-doe/tags/Next.js", "/jane-doe/tags/x/rss", "/jane-doe/a/b/c/d", "/preview", "/preview/a/b"]) {
      expect(parse(url), url).toBe("notFound");
    }
  });

  it("is no page (404) for a page that is not one whole number from 1 to 100,000, or several", () => {
    for (const url of ["/jane-doe?page=0", "/jane-doe?page=01", "/jane-doe?page=-1", "/jane-doe?page=1.5", "/jane-doe?page=abc", "/jane-doe?page=", "/jane-doe?page=100001", "/jane-doe?page=2&page=3", "/jane-doe/tags/x?page=0"]) {
      expect(parse(url), url).toBe("notFound");
    }
  });
});
