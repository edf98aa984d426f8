import "server-only";
/**
 * The one answer to "which address is this client?" for the whole app: the per-IP bucket of the
 * API's unauthenticated requests and the sign-in/sign-up throttle (docs/security.md).
 *
 * The socket's address, unless a proxy in front of the app is trusted to say it:
 * - on Vercel (VERCEL=1), the platform's own header, which its edge sets and a client cannot;
 * - with TRUSTED_PROXY_HOPS=N, the N-th address from the right of X-Forwarded-For (each trusted
 *   proxy appends the address it saw; everything left of them is whatever the client sent).
 * A value that is not an IP address counts as no address at all.
 */
import { isIP } from "node:net";
import { env } from "~/env";
import { headerValue, type RequestHeaders } from "./request-headers";
import { currentRequestScope } from "./request-scope";

/** Which proxy in front of the app may say who the client is. */
export interface ProxyTrust {
  vercel: boolean;
  /** Proxies that append to X-Forwarded-For; 0 for none. */
  hops: number;
}

const configuredTrust = (): ProxyTrust => ({ vercel: env.VERCEL === "1", hops: env.TRUSTED_PROXY_HOPS });

/** The client's address, or null when it cannot be known (or what was given is not an address). */
export function clientIp(
  request: { headers: RequestHeaders; socketAddress: string | undefined },
  trust: ProxyTrust = configuredTrust(),
): string | null {
  if (trust.vercel) {
    // Vercel sets these itself and overwrites any the client sent; x-vercel-forwarded-for stays
    // right even behind another proxy that rewrites x-forwarded-for.
    const { headers } = request;
    return validIp(headerValue(headers, "x-vercel-forwarded-for") ?? headerValue(headers, "x-real-ip") ?? headerValue(headers, "x-forwarded-for"));
  }
  const { hops } = trust;
  if (hops > 0) {
    const forwarded = (headerValue(request.headers, "x-forwarded-for") ?? "").split(",");
    // Fewer entries than trusted proxies: the request did not come through them all.
    return forwarded.length >= hops ? validIp(forwarded[forwarded.length - hops]) : null;
  }
  return validIp(request.socketAddress);
}

/**
 * The client's address for code that sees only a web Request (Next's route handlers): the one the
 * production server read from the socket when it handed the request over (./request-scope.ts),
 * else what the trusted proxy says (no socket is visible here, so under `next dev` without a
 * proxy: null).
 */
export function clientIpOfWebRequest(headers: Headers): string | null {
  const scope = currentRequestScope();
  if (scope && "clientIp" in scope) return scope.clientIp ?? null;
  return clientIp({ headers, socketAddress: undefined });
}

function validIp(value: string | undefined): string | null {
  const candidate = value?.trim() ?? "";
  if (!isIP(candidate)) return null;
  // An IPv4 client of a dual-stack socket shows as ::ffff:a.b.c.d: the same client as a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(candidate);
  return mapped ? mapped[1]! : candidate.toLowerCase();
}

/**
 * What a per-IP limit counts: the address itself for IPv4, its /64 network for IPv6 (one
 * subscriber is handed a whole /64, so single IPv6 addresses would be free to rotate).
 */
export function ipRateLimitSubject(ip: string | null): string {
  if (!ip) return "unknown";
  if (isIP(ip) !== 6) return ip;
  const [head = "", tail] = ip.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail === undefined ? [] : tail ? tail.split(":") : [];
  const groups = [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill("0"), ...tailGroups];
  return `${groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16)).join(":")}::/64`;
}
