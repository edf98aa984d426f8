import { describe, expect, it } from "vitest";
import { LISTENER_TRUST_MS, makeAnswer, PublicPageCache, type SourcedAnswer } from "~/server/public-site/cache";

const made = (text: string, ownerId: string | null = "owner-1", version = "1"): SourcedAnswer => ({ ownerId, version, answer: makeAnswer("text/html; charset=utf-8", text, new Date(0)) });

/** A load that records the kept answer it was given, and answers what `next` makes of it. */
function loader(next: (kept: SourcedAnswer | undefined) => SourcedAnswer | null) {
  const calls: (SourcedAnswer | undefined)[] = [];
  return { calls, load: async (kept: SourcedAnswer | undefined) => (calls.push(kept), next(kept)) };
}

describe("PublicPageCache", () => {
  it("without a proven listener, checks every hit (the load sees the kept answer)", async () => {
    const cache = new PublicPageCache();
    // Unchanged in the database: the load keeps what it was given.
    const { calls, load } = loader((kept) => kept ?? made("a"));
    expect((await cache.get("k", load))?.cache).toBe("MISS");
    expect((await cache.get("k", load))?.cache).toBe("REVALIDATED");
    expect(calls[0]).toBeUndefined();
    expect(calls[1]?.answer.body.toString()).toBe("a");
  });

  it("with a proven listener, serves answers made since it started without loading, until their account changes", async () => {
    const cache = new PublicPageCache();
    cache.listeningStarted();
    cache.listeningProven(Date.now());
    const { calls, load } = loader(() => made("a"));
    await cache.get("k", load);
    expect((await cache.get("k", load))?.cache).toBe("HIT");
    expect(calls).toHaveLength(1);
    cache.changed("other-owner");
    expect((await cache.get("k", load))?.cache).toBe("HIT");
    cache.changed("owner-1");
    expect((await cache.get("k", load))?.cache).toBe("MISS");
    expect((await cache.get("k", load))?.cache).toBe("HIT");
  });

  it("does not trust an answer whose load was under way when its account changed", async () => {
    const cache = new PublicPageCache();
    cache.listeningStarted();
    cache.listeningProven(Date.now());
    let release!: () => void;
    const pending = cache.get("k", () => new Promise((resolve) => (release = () => resolve(made("read before the change")))));
    cache.changed("owner-1");
    release();
    await pending;
    expect((await cache.get("k", async () => made("read after")))?.cache).toBe("MISS");
  });

  it("site-wide answers are made again after any account's change; everythingChanged drops every trust", async () => {
    const cache = new PublicPageCache();
    cache.listeningStarted();
    cache.listeningProven(Date.now());
    await cache.get("site", async () => made("index", null));
    await cache.get("k", async () => made("a"));
    cache.changed("someone");
    expect((await cache.get("site", async () => made("index 2", null)))?.cache).toBe("MISS");
    expect((await cache.get("k", async () => made("a")))?.cache).toBe("HIT");
    cache.everythingChanged();
    expect((await cache.get("k", async () => made("a")))?.cache).toBe("MISS");
  });

  it("stops trusting when the listener stops or its proof is older than LISTENER_TRUST_MS; a restart distrusts answers made before it", async () => {
    const cache = new PublicPageCache();
    cache.listeningStarted();
    cache.listeningProven(Date.now() - LISTENER_TRUST_MS - 1);
    await cache.get("k", async () => made("a"));
    expect((await cache.get("k", async () => made("a")))?.cache).toBe("MISS");
    cache.listeningProven(Date.now());
    expect((await cache.get("k", async () => made("a")))?.cache).toBe("HIT");
    cache.listeningStopped();
    expect((await cache.get("k", async () => made("a")))?.cache).toBe("MISS");
    cache.listeningStarted();
    cache.listeningProven(Date.now());
    expect((await cache.get("k", async () => made("a")))?.cache).toBe("MISS");
    expect((await cache.get("k", async () => made("a")))?.cache).toBe("HIT");
  });

  it("shares one load among concurrent misses, and serves the kept answer unchecked (STALE) when a load fails", async () => {
    const cache = new PublicPageCache();
    const { calls, load } = loader(() => made("a"));
    const results = await Promise.all([cache.get("k", load), cache.get("k", load), cache.get("k", load)]);
    expect(calls).toHaveLength(1);
    expect(results.map((result) => result?.cache)).toEqual(["MISS", "MISS", "MISS"]);
    expect((await cache.get("k", () => Promise.reject(new Error("database down"))))?.cache).toBe("STALE");
    await expect(cache.get("new", () => Promise.reject(new Error("database down")))).rejects.toThrow("database down");
  });

  it("keeps nothing for an address with nothing public", async () => {
    const cache = new PublicPageCache();
    await cache.get("k", async () => made("a"));
    expect(await cache.get("k", async () => null)).toBeNull();
    const { calls, load } = loader(() => null);
    await cache.get("k", load);
    expect(calls).toEqual([undefined]);
  });
});
