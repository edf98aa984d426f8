import { request } from "node:http";
import { randomInt, randomUUID } from "node:crypto";
import { apiBaseUrl } from "./api";

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json(): any;
}

export interface HttpOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** The local address to connect from: each loopback address is a client of its own. */
  localAddress?: string;
}

/** One HTTP request from a chosen local address, redirects not followed. */
export function httpRequest(baseUrl: string, path: string, { method = "GET", headers = {}, body, localAddress }: HttpOptions = {}): Promise<HttpAnswer> {
  const url = new URL(path, baseUrl);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        localAddress,
        headers: { ...(payload !== undefined && { "content-type": "application/json", origin: url.origin }), ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text) }),
        );
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** A loopback address no other test (or earlier run) connects from: a fresh per-IP budget. */
export function freshLoopbackAddress(): string {
  return `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

/** A random private address, for forged or proxy-reported headers: unlikely to repeat across runs. */
export function randomClientAddress(): string {
  return `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

/** Limits count per clock minute: start a burst early in one, so it cannot straddle two. */
export async function atStartOfAMinute(): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
}

/** An address no other test uses; the label tells a test's mail apart in a failure. */
export const uniqueEmail = (label = "t") => `${label}-${randomUUID()}@example.test`;

/** The session cookie a sign-up or sign-in answer set. */
export function sessionCookie(answer: HttpAnswer): string {
  const cookies = answer.headers["set-cookie"] ?? [];
  const session = (Array.isArray(cookies) ? cookies : [cookies]).find((cookie) => cookie.includes("session_token="));
  if (!session) throw new Error(`no session cookie (status ${answer.status}: ${answer.body})`);
  return session.split(";")[0]!;
}

export interface RawAnswer {
  status: number;
  body: any;
}

/**
 * A JSON POST, from the app's own origin, that sends only `sent` bytes of its body and keeps the
 * request open: an answer can only come from a server that stopped reading. Without
 * `declaredLength`, chunked.
 */
export function postWithoutFinishing(path: string, headers: Record<string, string>, sent: number, declaredLength?: number): Promise<RawAnswer> {
  const url = new URL(path, apiBaseUrl());
  return new Promise((resolve, reject) => {
    const allHeaders: Record<string, string> = { "content-type": "application/json", origin: url.origin, ...headers };
    if (declaredLength !== undefined) allHeaders["content-length"] = String(declaredLength);
    const req = request(url, { method: "POST", headers: allHeaders }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
      });
    });
    req.on("error", reject);
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within 10 s after ${sent} bytes of the body: the server waits for the rest`));
    }, 10_000);
    req.on("close", () => clearTimeout(timer));
    // The start of a JSON string that never ends.
    req.write('{"title":"');
    const chunk = Buffer.alloc(64 * 1024, "a");
    for (let written = 0; written < sent; written += chunk.length) req.write(chunk);
  });
}
