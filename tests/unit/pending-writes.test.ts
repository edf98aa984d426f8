import { describe, expect, it } from "vitest";
import { pendingUsageWriteCount, settlePendingUsageWrites, trackUsageWrite } from "~/server/usage/pending-writes";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("pending usage writes", () => {
  it("counts a write as pending from registration until its task settles, then forgets it", async () => {
    const before = pendingUsageWriteCount();
    let written = false;
    const task = trackUsageWrite("acct-1", async () => {
      await sleep(50);
      written = true;
    });
    expect(pendingUsageWriteCount()).toBe(before + 1); // before the task even starts

    const settled = settlePendingUsageWrites("acct-1");
    void task();
    await settled;
    expect(written).toBe(true);
    expect(pendingUsageWriteCount()).toBe(before);
  });

  it("forgets failed writes too, and does not wait for other accounts", async () => {
    const failing = trackUsageWrite("acct-2", () => Promise.reject(new Error("db down")));
    const other = trackUsageWrite("acct-3", () => sleep(10_000));
    await expect(failing()).rejects.toThrow("db down");
    const started = Date.now();
    await settlePendingUsageWrites("acct-2");
    expect(Date.now() - started).toBeLessThan(100);
    expect(pendingUsageWriteCount()).toBe(1);
    void other;
  });

  it("waits at most the given time for a write that never runs", async () => {
    trackUsageWrite("acct-4", () => Promise.resolve());
    const started = Date.now();
    await settlePendingUsageWrites("acct-4", 50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
