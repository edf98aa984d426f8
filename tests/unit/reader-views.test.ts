import { describe, expect, it } from "vitest";
import { createWriteBatcher } from "~/server/db/write-batcher";
import { isReaderView, referrerHost } from "~/server/views/reader-views";

const BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";

describe("a reader's view", () => {
  it("is a GET answered 200 or 304 to a browser", () => {
    expect(isReaderView("GET", 200, BROWSER)).toBe(true);
    expect(isReaderView("GET", 304, BROWSER)).toBe(true);
    for (const status of [301, 404, 503]) expect(isReaderView("GET", status, BROWSER)).toBe(false);
    expect(isReaderView("HEAD", 200, BROWSER)).toBe(false);
    for (const agent of [undefined, "", "curl/8.5.0", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"]) {
      expect(isReaderView("GET", 200, agent)).toBe(false);
    }
  });

  it("comes from the Referer's host, none for the site itself or an unreadable one", () => {
    const site = "https://blogs.example.org";
    expect(referrerHost("https://News.Example.com/a?b=1", site)).toBe("news.example.com");
    expect(referrerHost("http://search.example:8443/", site)).toBe("search.example:8443");
    expect(referrerHost("android-app://com.google.android.gm/", site)).toBe("com.google.android.gm");
    for (const referer of [undefined, "", "not a url", "http://blogs.example.org/alice", "about:blank", `https://${"a".repeat(250)}.example/`]) {
      expect(referrerHost(referer, site)).toBeNull();
    }
  });
});

describe("a write batcher", () => {
  it("writes what was recorded in one batch, and a flush waits for a write already under way", async () => {
    const written: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batcher = createWriteBatcher<number, number[]>({
      name: "numbers",
      intervalMs: 60_000,
      start: () => [],
      add: (batch, item) => void batch.push(item),
      full: (batch) => batch.length >= 3,
      async write(batch) {
        await gate;
        written.push(batch);
      },
    });
    void batcher.record(1);
    void batcher.record(2);
    const firstBatch = batcher.record(3); // full: written at once
    void batcher.record(4);
    let flushed = false;
    const flush = batcher.flush().then(() => (flushed = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(flushed).toBe(false);
    release();
    await Promise.all([firstBatch, flush]);
    expect(written).toEqual([[1, 2, 3], [4]]);
  });
});
