import "server-only";
// Webhook URLs must not reach the service's own network (docs/webhooks.md): the host is resolved
// and every address checked when an endpoint is created and again before each delivery, which then
// connects to the address checked, so a DNS answer that changes in between (rebinding) cannot
// redirect it. WEBHOOK_ALLOW_PRIVATE_URLS=1 lifts the rule for development and tests.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { DomainError } from "~/server/common/domain-error";
import { log } from "~/server/runtime/log";
import { webhookSettings } from "./settings";

const MAX_URL_LENGTH = 2_048;

/**
 * IPv4 ranges of IANA's special-purpose registry that are not globally reachable: this network,
 * private, shared (CGN), loopback, link-local, IETF protocol assignments, documentation, the
 * retired 6to4 relay anycast, benchmarking, multicast, reserved and broadcast.
 */
const REFUSED_IPV4 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  REFUSED_IPV4.addSubnet(network, prefix, "ipv4");
}

/**
 * IPv6 is allowed only in global unicast, 2000::/3, less the special-purpose blocks inside it:
 * IETF protocol assignments (Teredo, benchmarking, ORCHID...), documentation, and 6to4 (retired,
 * and it reaches whatever IPv4 address it embeds). Everything outside 2000::/3 is refused (loopback,
 * unspecified, IPv4-compatible, link-local, site-local, unique-local, multicast, discard, the
 * local-use NAT64 prefix, SRv6...) but for the forms below that embed an IPv4 address, which is
 * checked instead.
 */
const REFUSED_GLOBAL_IPV6: readonly [prefix: string, bits: number][] = [
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
];

/** Forms that carry an IPv4 address in their last 32 bits: IPv4-mapped, IPv4-translated (RFC 2765) and NAT64's well-known prefix. */
const EMBEDDING_IPV4: readonly [prefix: string, bits: number][] = [
  ["::ffff:0:0", 96],
  ["::ffff:0:0:0", 96],
  ["64:ff9b::", 96],
];

/**
 * Whether a webhook may not be sent to `address` (docs/webhooks.md): anything that is not a
 * globally reachable unicast address, however it is written.
 */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return REFUSED_IPV4.check(address, "ipv4");
  if (family !== 6) return true;
  const bytes = ipv6Bytes(address);
  if (!bytes) return true;
  if (EMBEDDING_IPV4.some(([prefix, bits]) => inPrefix(bytes, prefix, bits))) return REFUSED_IPV4.check(bytes.slice(12).join("."), "ipv4");
  const globalUnicast = (bytes[0]! & 0xe0) === 0x20;
  return !globalUnicast || REFUSED_GLOBAL_IPV6.some(([prefix, bits]) => inPrefix(bytes, prefix, bits));
}

function inPrefix(bytes: Uint8Array, prefix: string, bits: number): boolean {
  const network = ipv6Bytes(prefix)!;
  for (let bit = 0; bit < bits; bit++) {
    const mask = 0x80 >> bit % 8;
    if ((bytes[bit >> 3]! & mask) !== (network[bit >> 3]! & mask)) return false;
  }
  return true;
}

/** The 16 bytes of an IPv6 address in any textual form (compressed, with a dotted quad); null for anything else, a zone id included. */
export function ipv6Bytes(address: string): Uint8Array | null {
  if (isIP(address) !== 6 || address.includes("%")) return null;
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const left = groups(head);
  const right = groups(tail);
  const all = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  const bytes = new Uint8Array(16);
  all.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  return bytes;
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

/**
 * One answer whether the host does not resolve or resolves to an address that is not public: a
 * message naming the address, or telling the two apart, would make endpoint creation a lookup
 * of the service's internal names (docs/webhooks.md).
 */
const NOT_PUBLIC = "url's host must resolve to public internet addresses only";

/**
 * The refusal of a host that resolves to a loopback or private address. In development, where
 * the one asking runs the server and a local receiver is the usual test, it names the setting
 * that allows it; elsewhere it says no more than NOT_PUBLIC.
 */
export function privateAddressRefusal(development: boolean): string {
  return development ? `${NOT_PUBLIC} (in development, WEBHOOK_ALLOW_PRIVATE_URLS=1 allows loopback and private addresses)` : NOT_PUBLIC;
}

/** Resolves the URL's host and refuses it if any of its addresses is not public (unless allowed). */
export async function checkWebhookUrl(text: string): Promise<CheckedTarget> {
  const url = parseWebhookUrl(text);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = await lookup(host, { all: true, verbatim: true }).catch(() => refuse(NOT_PUBLIC));
  if (addresses.length === 0) refuse(NOT_PUBLIC);
  if (!webhookSettings.allowPrivateUrls) {
    const refused = addresses.find(({ address }) => isRefusedAddress(address));
    if (refused) {
      log.debug({ host, address: refused.address }, "webhook URL refused: its host resolves to an address that is not public");
      refuse(privateAddressRefusal(webhookSettings.namePrivateUrlSetting));
    }
  }
  const [first] = addresses;
  return { url, address: first!.address, family: first!.family === 6 ? 6 : 4 };
}
