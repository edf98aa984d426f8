import { describe, expect, it } from "vitest";
import { parseRetrySchedule } from "~/server/webhooks/settings";
import { isRefusedAddress } from "~/server/webhooks/url-safety";

describe("isRefusedAddress", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    "not an address",
  ])("refuses %s", (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("accepts %s", (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });
});

describe("parseRetrySchedule", () => {
  it("reads the default schedule and short test schedules", () => {
    expect(parseRetrySchedule("5s,5m,30m,2h,5h,10h,10h")).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(parseRetrySchedule("1s, 2s ,500ms")).toEqual([1_000, 2_000, 500]);
  });

  it("names the part it cannot read", () => {
    expect(() => parseRetrySchedule("1s,soon")).toThrow('"soon" is not a duration');
  });
});
