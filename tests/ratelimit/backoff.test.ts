import { afterEach, describe, expect, it, vi } from "vitest";
import { sharedStoreClient } from "~/server/ratelimit";
import { createBackoff, type BackoffPolicy } from "~/server/ratelimit/backoff";

const redisUrl = process.env.REDIS_URL;
const policy: BackoffPolicy = { freeAttempts: 3, firstDelaySeconds: 30, maxDelaySeconds: 100, forgetAfterSeconds: 3600 };
// Unique per run so runs against the same Redis never share counts.
const run = `${Date.now()}-${process.pid}`;

function describeBackoff(name: string, store: ReturnType<typeof sharedStoreClient>) {
  describe(name, () => {
    const backoff = createBackoff(`test-${run}`, policy, store);
    let subjects = 0;
    const freshSubject = () => `subject-${++subjects}`;

    afterEach(() => {
      vi.useRealTimers();
    });

    it("lets the free attempts through, then makes each further one wait, twice as long each time, up to the maximum", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const subject = freshSubject();
      const start = Date.parse("2030-01-01T10:00:00Z");
      vi.setSystemTime(start);
      const waits = [await backoff.attempt(subject), await backoff.attempt(subject), await backoff.attempt(subject)];
      expect(waits).toEqual([0, 0, 0]);
      // Locked for 30 s after the third: refused, and the refusal is not counted.
      expect(await backoff.attempt(subject)).toBe(30);
      expect(await backoff.attempt(subject)).toBe(30);
      if (store) return; // Redis keeps its own clock: the doubling is checked in process only.
      vi.setSystemTime(start + 30_000);
      expect(await backoff.attempt(subject)).toBe(0);
      expect(await backoff.attempt(subject)).toBe(60);
      vi.setSystemTime(start + 90_000);
      expect(await backoff.attempt(subject)).toBe(0);
      expect(await backoff.attempt(subject)).toBe(100);
    });

    it("starts counting again after a success", async () => {
      const subject = freshSubject();
      await backoff.attempt(subject);
      await backoff.attempt(subject);
      await backoff.succeeded(subject);
      expect([await backoff.attempt(subject), await backoff.attempt(subject), await backoff.attempt(subject)]).toEqual([0, 0, 0]);
      expect(await backoff.attempt(subject)).toBeGreaterThan(0);
    });

    it("counts concurrent attempts exactly: no more than the free ones get through at once", async () => {
      const subject = freshSubject();
      const waits = await Promise.all(Array.from({ length: 20 }, () => backoff.attempt(subject)));
      expect(waits.filter((wait) => wait === 0)).toHaveLength(policy.freeAttempts);
    });

    it("keeps subjects apart", async () => {
      const locked = freshSubject();
      for (let i = 0; i < policy.freeAttempts; i++) await backoff.attempt(locked);
      expect(await backoff.attempt(locked)).toBeGreaterThan(0);
      expect(await backoff.attempt(freshSubject())).toBe(0);
    });
  });
}

describeBackoff("in-process backoff", null);

describe.skipIf(!redisUrl)("Redis backoff (REDIS_URL)", () => {
  describeBackoff("over TCP", sharedStoreClient({ redisUrl }));
});
