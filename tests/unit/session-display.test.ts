import { describe, expect, it } from "vitest";
import { deviceName, shownAddress } from "~/shared/session-display";

describe("deviceName", () => {
  it.each([
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", "Edge on Windows"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15", "Safari on macOS"],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1", "Chrome on iOS"],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on Linux"],
    ["Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0 Mobile Safari/537.36", "Samsung Internet on Android"],
    ["curl/8.5.0", "Unknown device"],
    [null, "Unknown device"],
  ])("names %s as %s", (userAgent, expected) => {
    expect(deviceName(userAgent)).toBe(expected);
  });
});

describe("shownAddress", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["2001:0db8:85a3:0001:0000:0000:0000:0000", "2001:db8:85a3:1::/64"],
    ["0000:0000:0000:0000:0000:0000:0000:0000", "::/64"],
    ["2001:db8::1", "2001:db8::1"],
  ])("shows %s as %s", (address, expected) => {
    expect(shownAddress(address)).toBe(expected);
  });
});
