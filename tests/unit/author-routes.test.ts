// Author pages' addresses (docs/public-blog.md, Authors): /{handle}/authors/{authorSlug}, its
// pages and its feeds; the same at a custom domain's root; anything else under it names nothing.
import { describe, expect, it } from "vitest";
import { parsePublicRoute } from "~/server/public-site/routes";

const parse = (url: string, domain?: { handle: string }) => {
  const { pathname, searchParams } = new URL(url, "http://x");
  return parsePublicRoute(pathname, searchParams, domain);
};

describe("an author's addresses", () => {
  it("name their page, its pages and its feeds", () => {
    expect(parse("/jane-doe/authors/ada-l")).toEqual({ kind: "author", handle: "jane-doe", authorSlug: "ada-l", page: 1 });
    expect(parse("/jane-doe/authors/ada-l?page=2")).toEqual({ kind: "author", handle: "jane-doe", authorSlug: "ada-l", page: 2 });
    expect(parse("/jane-doe/authors/ada-l/feed.xml")).toEqual({ kind: "feed", handle: "jane-doe", format: "rss", authorSlug: "ada-l" });
    expect(parse("/jane-doe/authors/ada-l/atom.xml")).toEqual({ kind: "feed", handle: "jane-doe", format: "atom", authorSlug: "ada-l" });
    expect(parse("/jane-doe/authors/ada-l/feed.json")).toEqual({ kind: "feed", handle: "jane-doe", format: "json", authorSlug: "ada-l" });
    expect(parse("/authors/ada-l", { handle: "jane-doe" })).toEqual({ kind: "author", handle: "jane-doe", authorSlug: "ada-l", page: 1 });
    expect(parse("/authors/ada-l/atom.xml", { handle: "jane-doe" })).toEqual({ kind: "feed", handle: "jane-doe", format: "atom", authorSlug: "ada-l" });
  });

  it("leave a blog slugged `authors` its page, and name nothing else under it", () => {
    expect(parse("/jane-doe/authors")).toEqual({ kind: "post", handle: "jane-doe", blogSlug: "authors" });
    for (const url of ["/jane-doe/authors/Ada", "/jane-doe/authors/a", "/jane-doe/authors/ada-l?page=0", "/jane-doe/authors/ada-l/rss.xml", "/jane-doe/authors/ada-l/feed.xml/x"]) {
      expect(parse(url), url).toBe("notFound");
    }
  });
});
