import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createRateLimiter } from "~/server/ratelimit";
import { adaptIoredis } from "~/server/ratelimit/redis-tcp";

const redisUrl = process.env.REDIS_URL;
const prefix = `ratelimit-test:${Date.now()}:${process.pid}:tcp`;

describe.skipIf(!redisUrl)("Redis over TCP (REDIS_URL)", () => {
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(redisUrl ?? "");
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  describe("ioredis adapter", () => {
    // Shaped like @upstash/ratelimit's scripts, whose shebang Redis 7.0 rejects.
    const script = `#!lua flags=allow-key-locking
  return redis.call("INCRBY", KEYS[1], ARGV[1])
`;
    const libraryHash = createHash("sha1").update(script).digest("hex");
    const key = `${prefix}:adapter`;

    it("answers NOSCRIPT for a script it has not loaded, so the library falls back to eval", async () => {
      await expect(adaptIoredis(redis).evalsha(libraryHash, [key], [1])).rejects.toThrow(/NOSCRIPT/);
    });

    it("runs a shebang script through eval, then through evalsha under the library's hash", async () => {
      const client = adaptIoredis(redis);
      expect(await client.eval(script, [key], [2])).toBe(2);
      expect(await client.evalsha(libraryHash, [key], [3])).toBe(5);
    });
  });

  it("keeps no local memory of rejections: a budget cleared in Redis admits again", async () => {
    const limiter = createRateLimiter({ redisUrl, prefix });
    await limiter.consume("account", 1);
    expect(await limiter.consume("account", 1)).toMatchObject({ success: false });

    await redis.del(...(await redis.keys(`${prefix}:account:*`)));
    expect(await limiter.consume("account", 1)).toMatchObject({ success: true, remaining: 0 });
  });
});
