import { request } from "node:http";
import { randomInt, randomUUID } from "node:crypto";

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

export const uniqueEmail = () => `t-${randomUUID()}@example.test`;

/** The session cookie a sign-up or sign-in answer set. */
export function sessionCookie(answer: HttpAnswer): string {
  const cookies = answer.headers["set-cookie"] ?? [];
  const session = (Array.isArray(cookies) ? cookies : [cookies]).find((cookie) => cookie.includes("session_token="));
  if (!session) throw new Error(`no session cookie (status ${answer.status}: ${answer.body})`);
  return session.split(";")[0]!;
}
