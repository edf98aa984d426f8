import { createServer, type Server, type Socket } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNextServer, startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { createTestAccount, seedBlogs, type TestAccount } from "../support/api";

/**
 * Share images of titles in any script the shipped fonts cover, and with emoji, are drawn from
 * files the app ships (docs/public-blog.md, Share images): no request leaves the server. Servers
 * of the test's own send every outbound fetch through a proxy (NODE_USE_ENV_PROXY) that counts the
 * connections and answers none, as a machine without internet would: the production server, and
 * `next start`, where Next's route serves the public site as on Vercel.
 */
const servers: Record<string, RunningServer> = {};
let proxy: Server;
let outboundConnections = 0;
let account: TestAccount;

beforeAll(async () => {
  proxy = createServer((socket: Socket) => {
    outboundConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  const env = { ...process.env, WEBHOOK_WORKER: "0", NODE_USE_ENV_PROXY: "1", HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl, NO_PROXY: "127.0.0.1,localhost" };
  [servers.production, servers.next, account] = await Promise.all([startProductionServer(env, { logFile: serverLogFile() }), startNextServer(env, { logFile: serverLogFile() }), createTestAccount()]);
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.stop()));
  proxy?.close();
});

/** A public blog with this title, and its share image's pixels as this server draws them. */
async function shareImage(server: RunningServer, title: string): Promise<Buffer> {
  const blogSlug = `share-${Math.random().toString(36).slice(2)}`;
  await seedBlogs(account.id, [{ title, blogSlug, isPublic: true }]);
  const response = await fetch(new URL(`/${account.handle}/${blogSlug}/share-image.png`, server.baseUrl));
  expect(response.status, title).toBe(200);
  expect(response.headers.get("content-type")).toBe("image/png");
  const png = Buffer.from(await response.arrayBuffer());
  const { info, data } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  expect({ width: info.width, height: info.height }).toEqual({ width: 1200, height: 630 });
  return data;
}

describe.each(["production", "next"])("share images drawn by the %s server", (name) => {
  // Two titles of the same length in each script: drawn with the script's glyphs, they differ;
  // drawn as missing-glyph boxes (or not at all), they would be the same picture.
  const pairs = [
    { script: "Chinese", titles: ["你好世界", "春夏秋冬"] },
    { script: "Japanese", titles: ["こんにちは", "さようなら"] },
    { script: "Korean", titles: ["안녕하세요", "감사합니다"] },
    { script: "emoji", titles: ["Launch 🚀", "Launch 🎉"] },
    { script: "Cyrillic and Greek", titles: ["Привет Ωμέγα", "Москва Αλφα"] },
  ];
  it.each(pairs)("$script: from the shipped fonts and emoji, with no outbound request", async ({ titles }) => {
    const [first, second] = await Promise.all(titles.map((title) => shareImage(servers[name]!, title)));
    expect(first!.equals(second!)).toBe(false);
    expect(outboundConnections).toBe(0);
  });

  it("an emoji is drawn in colour", async () => {
    const pixels = await shareImage(servers[name]!, "🍊🍊🍊🍊🍊🍊");
    // The card is slate and indigo; an orange has red well above blue somewhere.
    let orange = 0;
    for (let i = 0; i < pixels.length; i += 3) if (pixels[i]! > 200 && pixels[i + 2]! < 80) orange++;
    expect(orange).toBeGreaterThan(1000);
    expect(outboundConnections).toBe(0);
  });
});
