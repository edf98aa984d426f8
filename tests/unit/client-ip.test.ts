import { describe, expect, it } from "vitest";
import { clientIp, ipRateLimitSubject, type ProxyTrust } from "~/server/http/client-ip";

const direct: ProxyTrust = { vercel: false, hops: 0 };
const behindOneProxy: ProxyTrust = { vercel: false, hops: 1 };
const behindTwoProxies: ProxyTrust = { vercel: false, hops: 2 };
const onVercel: ProxyTrust = { vercel: true, hops: 0 };

const request = (headers: Record<string, string>, socketAddress: string | undefined = "198.51.100.7") => ({
  headers: new Headers(headers),
  socketAddress,
});

describe("clientIp", () => {
  it("is the socket's address when no proxy is trusted, whatever the forwarding headers say", () => {
    const forged = request({ "x-forwarded-for": "203.0.113.1", "x-real-ip": "203.0.113.2", "x-vercel-forwarded-for": "203.0.113.3" });
    expect(clientIp(forged, direct)).toBe("198.51.100.7");
  });

  it("takes an IPv4 client of a dual-stack socket as its IPv4 address", () => {
    expect(clientIp(request({}, "::ffff:127.0.0.1"), direct)).toBe("127.0.0.1");
  });

  it("behind N trusted proxies, is the N-th address from the right of X-Forwarded-For", () => {
    const chain = request({ "x-forwarded-for": "10.9.9.9, 203.0.113.5, 192.0.2.1" });
    expect(clientIp(chain, behindOneProxy)).toBe("192.0.2.1");
    expect(clientIp(chain, behindTwoProxies)).toBe("203.0.113.5");
  });

  it("knows no address when X-Forwarded-For has fewer entries than trusted proxies", () => {
    expect(clientIp(request({ "x-forwarded-for": "192.0.2.1" }), behindTwoProxies)).toBeNull();
    expect(clientIp(request({}), behindOneProxy)).toBeNull();
  });

  it("on Vercel, believes the platform's own header first", () => {
    const headers = { "x-vercel-forwarded-for": "203.0.113.9", "x-forwarded-for": "192.0.2.1", "x-real-ip": "192.0.2.2" };
    expect(clientIp(request(headers), onVercel)).toBe("203.0.113.9");
    expect(clientIp(request({ "x-real-ip": "192.0.2.2", "x-forwarded-for": "192.0.2.1" }), onVercel)).toBe("192.0.2.2");
  });

  it.each([
    ["16 KB of junk", "x".repeat(16 * 1024)],
    ["a host name", "evil.example"],
    ["an address with a port", "192.0.2.1:8080"],
    ["an empty entry", " "],
    ["a CIDR range", "192.0.2.0/24"],
  ])("treats %s as no address", (_, value) => {
    expect(clientIp(request({ "x-forwarded-for": value }), behindOneProxy)).toBeNull();
    expect(clientIp(request({ "x-vercel-forwarded-for": value }), onVercel)).toBeNull();
    expect(clientIp(request({}, value), direct)).toBeNull();
  });

  it("reads Node's header object as well as web Headers", () => {
    expect(clientIp({ headers: { "x-forwarded-for": "10.0.0.1, 192.0.2.1" }, socketAddress: "10.0.0.2" }, behindOneProxy)).toBe("192.0.2.1");
  });
});

describe("ipRateLimitSubject", () => {
  it("counts IPv4 addresses one by one, IPv6 addresses by their /64, and no address as one", () => {
    expect(ipRateLimitSubject("192.0.2.1")).toBe("192.0.2.1");
    expect(ipRateLimitSubject("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(ipRateLimitSubject("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(ipRateLimitSubject("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(ipRateLimitSubject("::1")).toBe("0:0:0:0::/64");
    expect(ipRateLimitSubject(null)).toBe("unknown");
  });
});
