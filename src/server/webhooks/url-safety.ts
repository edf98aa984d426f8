import "server-only";
// Webhook URLs must not reach the service's own network (docs/webhooks.md): the host is resolved
// and every address checked when an endpoint is created and again before each delivery, which then
// connects to the address checked, so a DNS answer that changes in between (rebinding) cannot
// redirect it. WEBHOOK_ALLOW_PRIVATE_URLS=1 lifts the rule for development and tests.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { DomainError } from "~/server/domain-error";
import { webhookSettings } from "./settings";

const MAX_URL_LENGTH = 2_048;

/** Loopback, private, link-local, unique-local, multicast, unspecified and reserved ranges. */
const REFUSED = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  REFUSED.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["2001:db8::", 32],
] as const) {
  REFUSED.addSubnet(network, prefix, "ipv6");
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const match = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return null;
  if (match[1]) return match[1];
  const high = parseInt(match[2]!, 16);
  const low = parseInt(match[3]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return REFUSED.check(address, "ipv4");
  if (family !== 6) return true;
  const ipv4 = embeddedIpv4(address);
  return ipv4 ? REFUSED.check(ipv4, "ipv4") : REFUSED.check(address, "ipv6");
}

export interface CheckedTarget {
  url: URL;
  /** The address to connect to: one the check passed. */
  address: string;
  family: 4 | 6;
}

function refuse(message: string): never {
  throw new DomainError("INVALID_PARAMETER", message, undefined, "url");
}

/** Parses an endpoint URL and checks its scheme (no DNS): what creation refuses before resolving. */
export function parseWebhookUrl(text: string): URL {
  if (text.length > MAX_URL_LENGTH) refuse(`url must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    refuse("url must be an absolute URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") refuse("url must be an http(s) URL");
  if (url.protocol !== "https:" && webhookSettings.requireHttps) refuse("url must be https");
  if (url.username || url.password) refuse("url must not contain credentials");
  return url;
}

/** Resolves the URL's host and refuses it if any of its addresses is not public (unless allowed). */
export async function checkWebhookUrl(text: string): Promise<CheckedTarget> {
  const url = parseWebhookUrl(text);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = await lookup(host, { all: true, verbatim: true }).catch(() => refuse(`url's host ${host} does not resolve`));
  if (addresses.length === 0) refuse(`url's host ${host} does not resolve`);
  if (!webhookSettings.allowPrivateUrls) {
    const refused = addresses.find(({ address }) => isRefusedAddress(address));
    if (refused) refuse(`url's host ${host} resolves to ${refused.address}, a loopback, private or link-local address`);
  }
  const [first] = addresses;
  return { url, address: first!.address, family: first!.family === 6 ? 6 : 4 };
}
