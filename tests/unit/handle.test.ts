import { describe, expect, it } from "vitest";
import { firstFreeHandle, handleFromEmail, handleProblem, isReservedHandle, isValidHandle } from "~/shared/handle";

describe("handleFromEmail", () => {
  it.each([
    ["jane@example.com", "jane"],
    ["Jane.Doe+news@example.com", "jane-doe-news"],
    ["__jane__doe__@example.com", "jane-doe"],
    ["Zoë.Ünal@example.com", "zoe-unal"],
    ["a@example.com", "a-user"],
    ["___@example.com", "user"],
    ["first.last.very.long.local.part.name@example.com", "first-last-very-long-local-par"],
    ["first.last.very.long.local.pa.name@example.com", "first-last-very-long-local-pa"],
    // Handles the app's own routes use are never derived.
    ["api@example.com", "api-user"],
    ["Dashboard@example.com", "dashboard-user"],
    ["sign.in@example.com", "sign-in-user"],
  ])("%s -> %s", (email, handle) => {
    expect(handleFromEmail(email)).toBe(handle);
    expect(isValidHandle(handle)).toBe(true);
    expect(isReservedHandle(handle)).toBe(false);
  });
});

describe("firstFreeHandle", () => {
  const takenIn = (handles: string[]) => async (handle: string) => handles.includes(handle);

  it("keeps a free base", async () => {
    expect(await firstFreeHandle("jane", takenIn([]))).toBe("jane");
  });

  it("numbers from 2 until one is free", async () => {
    expect(await firstFreeHandle("jane", takenIn(["jane", "jane-2", "jane-3"]))).toBe("jane-4");
  });

  const long = `${"a".repeat(26)}-bcd`; // 30 characters

  it("cuts the base so the numbered handle stays within 30 characters", async () => {
    const handle = await firstFreeHandle(long, takenIn([long]));
    expect(handle).toBe(`${"a".repeat(26)}-b-2`);
    expect(isValidHandle(handle)).toBe(true);
  });

  it("never leaves a hyphen before the number", async () => {
    const taken = [long, ...Array.from({ length: 8 }, (_, i) => `${"a".repeat(26)}-b-${i + 2}`)];
    // "-10" needs one character more: the cut falls right after the base's hyphen, which goes too.
    expect(await firstFreeHandle(long, takenIn(taken))).toBe(`${"a".repeat(26)}-10`);
  });
});

describe("isValidHandle", () => {
  it.each(["ab", "a".repeat(31), "Jane", "jane--doe", "-jane", "jane-", "jane_doe"])("refuses %s", (handle) => {
    expect(isValidHandle(handle)).toBe(false);
  });
});

describe("handleProblem", () => {
  it.each(["api", "dashboard", "sign-in", "sign-up", "sign-out", "settings", "docs"])("refuses the reserved %s", (handle) => {
    expect(handleProblem(handle)).toBe(`the handle ${handle} is reserved`);
  });

  it("states the format rule", () => {
    expect(handleProblem("Jane")).toMatch(/^handle must be 3 to 30 characters/);
  });

  it("accepts a valid free-form handle", () => {
    expect(handleProblem("jane-doe")).toBeNull();
  });
});
