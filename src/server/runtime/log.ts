import "server-only";
/**
 * The app's one logger: JSON lines (pino) on stderr, so a CLI's stdout stays its own output.
 * Every line written while a request is served carries that request's id (`withRequestId`).
 * Secrets never reach a line: the paths below are censored wherever they appear, and callers
 * log ids and prefixes of keys, never the keys themselves (docs/security.md).
 */
import pino from "pino";
import { currentRequestScope, inRequestScope } from "../http/request-scope";

const SECRET_FIELDS = ["password", "newPassword", "currentPassword", "key", "apiKey", "api_key", "token", "secret", "cookie", "authorization"];

export const log: pino.Logger = pino(
  {
    level: process.env.LOG_LEVEL || "info",
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => {
      const requestId = currentRequestScope()?.requestId;
      return requestId ? { requestId } : {};
    },
    redact: {
      paths: [...SECRET_FIELDS, ...SECRET_FIELDS.map((field) => `*.${field}`), 'headers["x-api-key"]', "*.headers.cookie", '*.headers["x-api-key"]', "*.headers.authorization"],
      censor: "[redacted]",
    },
  },
  pino.destination({ fd: 2, sync: true }),
);

/** Runs `work` with every log line it writes (awaited work included) tagged with `requestId`. */
export function withRequestId<T>(requestId: string, work: () => T): T {
  return inRequestScope({ requestId }, work);
}

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return currentRequestScope()?.requestId;
}
