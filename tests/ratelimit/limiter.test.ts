import { afterEach, describe, expect, it, vi } from "vitest";

import { createRateLimiter, type RateLimiter } from "~/server/ratelimit";

import { nextUtcHour } from "./hour";

const redisUrl = process.env.REDIS_URL;
// Unique per run so runs against the same Redis never share counters.
const prefix = `ratelimit-test:${Date.now()}:${process.pid}`;

function describeHourlyLimiter(name: string, limiter: RateLimiter) {
  describe(name, () => {
    let identifierCount = 0;
    const freshIdentifier = () => `account-${++identifierCount}`;

    afterEach(() => {
      vi.useRealTimers();
    });

    it("admits `limit` requests, then rejects with remaining never below zero", async () => {
      const id = freshIdentifier();
      const states = [];
      for (let i = 0; i < 7; i++) states.push(await limiter.consume(id, 5));

      expect(states.map((s) => s.success)).toEqual([true, true, true, true, true, false, false]);
      expect(states.map((s) => s.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
      expect(states.every((s) => s.limit === 5)).toBe(true);
    });

    it("resets at the next UTC hour boundary", async () => {
      const before = Date.now();
      const consumed = await limiter.consume(freshIdentifier(), 5);
      const peeked = await limiter.peek(freshIdentifier(), 5);
      const after = Date.now();

      // Either boundary, should the run straddle an hour.
      const boundaries = [nextUtcHour(before), nextUtcHour(after)];
      expect(boundaries).toContain(consumed.reset);
      expect(boundaries).toContain(peeked.reset);
    });

    it("starts a fresh budget when the UTC hour turns", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const id = freshIdentifier();
      vi.setSystemTime(new Date("2030-01-01T10:59:59.900Z"));
      await limiter.consume(id, 1);
      const rejected = await limiter.consume(id, 1);
      expect(rejected).toMatchObject({ success: false, reset: Date.parse("2030-01-01T11:00:00.000Z") });

      vi.setSystemTime(new Date("2030-01-01T11:00:00.000Z"));
      const admitted = await limiter.consume(id, 1);
      expect(admitted).toEqual({
        limit: 1,
        remaining: 0,
        reset: Date.parse("2030-01-01T12:00:00.000Z"),
        success: true,
      });
    });

    it("keeps windows of other lengths, aligned to the clock like the hour, apart from the hourly budget", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const id = freshIdentifier();
      vi.setSystemTime(new Date("2030-01-01T10:30:59.500Z"));
      await limiter.consume(id, 1, 60);
      expect(await limiter.consume(id, 1, 60)).toMatchObject({ success: false, reset: Date.parse("2030-01-01T10:31:00.000Z") });
      expect(await limiter.peek(id, 1)).toMatchObject({ remaining: 1, success: true });

      vi.setSystemTime(new Date("2030-01-01T10:31:00.000Z"));
      expect(await limiter.consume(id, 1, 60)).toMatchObject({ success: true, reset: Date.parse("2030-01-01T10:32:00.000Z") });
    });

    it("admits exactly 100 of 200 concurrent requests against a limit of 100", async () => {
      const id = freshIdentifier();
      const states = await Promise.all(Array.from({ length: 200 }, () => limiter.consume(id, 100)));

      const admitted = states.filter((s) => s.success);
      expect(admitted).toHaveLength(100);
      // Each admitted request saw its own count: remaining 99 down to 0, once each.
      expect(admitted.map((s) => s.remaining).sort((a, b) => a - b)).toEqual([...Array(100).keys()]);
      expect(states.filter((s) => !s.success).every((s) => s.remaining === 0)).toBe(true);
      expect(await limiter.peek(id, 100)).toMatchObject({ remaining: 0, success: false });
    });

    it("peek reports the state without consuming", async () => {
      const id = freshIdentifier();
      expect(await limiter.peek(id, 3)).toMatchObject({ limit: 3, remaining: 3, success: true });
      expect(await limiter.peek(id, 3)).toMatchObject({ remaining: 3 });

      await limiter.consume(id, 3);
      expect(await limiter.peek(id, 3)).toMatchObject({ remaining: 2, success: true });
      expect(await limiter.consume(id, 3)).toMatchObject({ remaining: 1, success: true });
    });

    it("keeps separate budgets per identifier", async () => {
      const exhausted = freshIdentifier();
      const other = freshIdentifier();
      await limiter.consume(exhausted, 1);
      expect(await limiter.consume(exhausted, 1)).toMatchObject({ success: false });

      expect(await limiter.consume(other, 1)).toMatchObject({ success: true, remaining: 0 });
    });

    it("counts one budget per identifier whatever limit is asked, so a plan change keeps usage", async () => {
      const id = freshIdentifier();
      for (let i = 0; i < 3; i++) await limiter.consume(id, 5);

      expect(await limiter.peek(id, 10)).toMatchObject({ limit: 10, remaining: 7 });
      expect(await limiter.consume(id, 3)).toMatchObject({ limit: 3, remaining: 0, success: false });
    });
  });
}

describeHourlyLimiter("in-process limiter", createRateLimiter({}));

describe.skipIf(!redisUrl)("Redis limiter (REDIS_URL)", () => {
  describeHourlyLimiter("over TCP", createRateLimiter({ redisUrl, prefix }));
});
