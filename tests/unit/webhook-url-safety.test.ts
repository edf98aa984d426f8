import { describe, expect, it } from "vitest";
import { parseRetrySchedule } from "~/server/webhooks/settings";
import { isRefusedAddress, privateAddressRefusal } from "~/server/webhooks/url-safety";

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
    // IPv4-compatible (deprecated), in both notations.
    "::127.0.0.1",
    "::7f00:1",
    "::8.8.8.8",
    "::10.0.0.1",
    // IPv4-translated (RFC 2765), NAT64's well-known prefix in hex, and its local-use prefix.
    "::ffff:0:7f00:1",
    "::ffff:0:a00:1",
    "64:ff9b::7f00:1",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::a00:1",
    "64:ff9b:1::808:808",
    // 6to4 (embedding 127.0.0.1, 10.0.0.1 and even a public address: its relays are retired), Teredo.
    "2002:7f00:1::",
    "2002:a00:1::1",
    "2002:808:808::1",
    "2001:0:4136:e378:8000:63bf:80ff:fffe",
    // Other special-purpose ranges: documentation, benchmarking, ORCHIDv2, discard, site-local, SRv6, the 3fff documentation block.
    "2001:db8::1",
    "2001:2::1",
    "2001:20::1",
    "100::1",
    "fec0::1",
    "5f00::1",
    "3fff::1",
    "::2",
    // Upper case and full forms are the same addresses.
    "::FFFF:7F00:1",
    "0:0:0:0:0:0:0:1",
    "FE80:0:0:0:0:0:0:1",
    // IPv4 special-purpose ranges.
    "192.0.2.1",
    "198.51.100.7",
    "203.0.113.9",
    "192.88.99.1",
    "198.19.0.1",
    "192.0.0.170",
    // A zone id is link-local.
    "fe80::1%eth0",
  ])("refuses %s", (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "192.31.196.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "::ffff:808:808",
    "64:ff9b::808:808",
    "64:ff9b::8.8.8.8",
  ])("accepts %s", (address) => {
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

describe("privateAddressRefusal", () => {
  it("names WEBHOOK_ALLOW_PRIVATE_URLS in development only", () => {
    expect(privateAddressRefusal(true)).toContain("WEBHOOK_ALLOW_PRIVATE_URLS=1");
    expect(privateAddressRefusal(false)).toBe("url's host must resolve to public internet addresses only");
  });
});
