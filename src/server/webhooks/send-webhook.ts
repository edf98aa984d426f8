import "server-only";
// One delivery attempt as the Standard Webhooks specification has it (docs/webhooks.md): a JSON
// POST with webhook-id, webhook-timestamp and webhook-signature headers, any 2xx a success.
import { randomBytes } from "node:crypto";
import type { LookupFunction } from "node:net";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { Webhook } from "standardwebhooks";
import { checkWebhookUrl } from "./url-safety";
import { webhookSettings } from "./settings";

/** A new signing secret: whsec_ and 32 random bytes in base64, as Standard Webhooks libraries expect. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export interface WebhookMessage {
  /** The event's id: receivers deduplicate by it. */
  id: string;
  /** The body, sent byte for byte as signed. */
  body: string;
}

export interface AttemptOutcome {
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  /** The first 2 KB of the response body. */
  responseBody: string;
  error: string | null;
  succeeded: boolean;
}

export async function sendWebhook(endpoint: { url: string; secret: string }, message: WebhookMessage): Promise<AttemptOutcome> {
  const startedAt = new Date();
  const finish = (outcome: Pick<AttemptOutcome, "responseStatus" | "responseBody" | "error">): AttemptOutcome => ({
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
    ...outcome,
    succeeded: outcome.responseStatus !== null && outcome.responseStatus >= 200 && outcome.responseStatus < 300,
  });
  try {
    const target = await checkWebhookUrl(endpoint.url);
    const signature = new Webhook(endpoint.secret).sign(message.id, startedAt, message.body);
    const response = await post(target.url, pinnedLookup(target.address, target.family), {
      "content-type": "application/json",
      "user-agent": "blogmgr-webhooks",
      "webhook-id": message.id,
      "webhook-timestamp": String(Math.floor(startedAt.getTime() / 1000)),
      "webhook-signature": signature,
    }, message.body);
    return finish({ ...response, error: null });
  } catch (error) {
    return finish({ responseStatus: null, responseBody: "", error: error instanceof Error ? error.message : String(error) });
  }
}

/** Resolves every name to the address that was checked (the connection cannot be rebound); also the importer's image fetches. */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function post(url: URL, lookup: LookupFunction, headers: Record<string, string>, body: string): Promise<{ responseStatus: number; responseBody: string }> {
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers, lookup, timeout: webhookSettings.timeoutMs }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on("data", (chunk: Buffer) => {
        if (kept < webhookSettings.responseBodyBytes) {
          chunks.push(chunk);
          kept += chunk.length;
        }
      });
      res.on("end", () => {
        const responseBody = Buffer.concat(chunks).subarray(0, webhookSettings.responseBodyBytes).toString("utf8");
        resolve({ responseStatus: res.statusCode ?? 0, responseBody });
      });
      res.on("error", reject);
    });
    // One deadline for the whole exchange, not only idle time between packets.
    const deadline = setTimeout(() => req.destroy(new Error(`no response within ${webhookSettings.timeoutMs / 1000} s`)), webhookSettings.timeoutMs);
    req.on("close", () => clearTimeout(deadline));
    req.on("timeout", () => req.destroy(new Error(`no response within ${webhookSettings.timeoutMs / 1000} s`)));
    req.on("error", reject);
    req.end(body);
  });
}
