import { describe, expect, it } from "vitest";
import { createInFlight } from "~/server/http/in-flight";

const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("work in flight", () => {
  it("is drained at once when there is none", async () => {
    expect(await createInFlight().drained(1_000)).toBe(true);
  });

  it("is drained once every piece settles, failures and pieces tracked meanwhile included", async () => {
    const inFlight = createInFlight();
    let done = 0;
    inFlight.track(after(20).then(() => done++));
    inFlight.track(after(10).then(() => Promise.reject(new Error("failed"))));
    // Started while the others run, as an answer's after-response work starts once it is sent.
    void after(15).then(() => inFlight.track(after(30).then(() => done++)));
    expect(inFlight.size).toBe(2);
    expect(await inFlight.drained(1_000)).toBe(true);
    expect(done).toBe(2);
    expect(inFlight.size).toBe(0);
  });

  it("stops waiting at the limit, saying what is left", async () => {
    const inFlight = createInFlight();
    inFlight.track(new Promise(() => undefined));
    expect(await inFlight.drained(20)).toBe(false);
    expect(inFlight.size).toBe(1);
  });
});
