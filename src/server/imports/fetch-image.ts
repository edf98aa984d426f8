import "server-only";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { checkWebhookUrl } from "~/server/webhooks/url-safety";
import { pinnedLookup } from "~/server/webhooks/send-webhook";
import { MAX_IMAGE_BYTES } from "~/shared/images";

/** One image fetch, connection to last byte. */
const FETCH_TIMEOUT_MS = 15_000;
/** Redirects followed, each checked as the first URL. */
const MAX_REDIRECTS = 3;

/**
 * An image a post uses at an absolute http(s) URL (docs/migrating.md, How an import runs), fetched
 * under the webhook URL rules (src/server/webhooks/url-safety.ts): its host must resolve to public
 * addresses only, the connection goes to the address checked (no rebinding), each redirect is
 * checked the same way, at most MAX_IMAGE_BYTES and FETCH_TIMEOUT_MS. Throws an Error whose
 * message the report shows.
 */
export async function fetchImportImage(url: string): Promise<Buffer> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const target = await checkWebhookUrl(current).catch((error: unknown) => {
      throw new Error(`refused: ${error instanceof Error ? error.message.replace(/^url/, "the URL") : String(error)}`);
    });
    const answer = await get(target.url, pinnedLookup(target.address, target.family));
    if (answer.redirect) {
      current = new URL(answer.redirect, target.url).toString();
      continue;
    }
    return answer.bytes!;
  }
  throw new Error(`more than ${MAX_REDIRECTS} redirects`);
}

function get(url: URL, lookup: ReturnType<typeof pinnedLookup>): Promise<{ bytes?: Buffer; redirect?: string }> {
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "GET", lookup, headers: { "user-agent": "blogmgr-import", accept: "image/*" } }, (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        return resolve({ redirect: res.headers.location });
      }
      if (status !== 200) {
        res.resume();
        return reject(new Error(`the server answered HTTP ${status}`));
      }
      if (Number(res.headers["content-length"]) > MAX_IMAGE_BYTES) {
        req.destroy();
        return reject(new Error(`larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_IMAGE_BYTES) req.destroy(new Error(`larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`));
        else chunks.push(chunk);
      });
      res.on("end", () => resolve({ bytes: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${FETCH_TIMEOUT_MS / 1000} s`)), FETCH_TIMEOUT_MS);
    req.on("close", () => clearTimeout(deadline));
    req.on("error", (error) => reject(inOwnersWords(error)));
    req.end();
  });
}

/** A connection's failure as the report shows it to the owner, its code kept in brackets. */
function inOwnersWords(error: Error): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const said: Record<string, string> = {
    ECONNREFUSED: "the old site refused the connection",
    ECONNRESET: "the old site cut the connection",
    ETIMEDOUT: "the connection to the old site timed out",
    EHOSTUNREACH: "the old site cannot be reached",
    ENETUNREACH: "the old site cannot be reached",
  };
  if (code && said[code]) return new Error(`${said[code]} (${code})`);
  if (code && /CERT|SSL|TLS/.test(code)) return new Error(`the old site's HTTPS certificate was not accepted (${code})`);
  return error;
}
