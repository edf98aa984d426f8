import "server-only";
import { createHash, randomBytes } from "node:crypto";

/** Keys are `bm_` followed by 64 characters from [a-z0-9]: 67 characters in all. */
export const KEY_PREFIX = "bm_";
export const KEY_BODY_LENGTH = 64;
const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
// The largest multiple of 36 below 256: bytes at or above it are dropped so every character
// is equally likely (no modulo bias).
const UNBIASED_BYTE_LIMIT = 256 - (256 % ALPHABET.length);

export interface GeneratedApiKey {
  /** The full key: shown to its owner once, never stored. */
  key: string;
  hash: string;
  prefix: string;
  suffix: string;
}

export function generateApiKey(): GeneratedApiKey {
  let body = "";
  while (body.length < KEY_BODY_LENGTH) {
    for (const byte of randomBytes(KEY_BODY_LENGTH)) {
      if (byte < UNBIASED_BYTE_LIMIT && body.length < KEY_BODY_LENGTH) body += ALPHABET[byte % ALPHABET.length];
    }
  }
  const key = KEY_PREFIX + body;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, 7), suffix: key.slice(-4) };
}

/** Keys are stored and looked up by this hash only. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** How the dashboard shows a key: `bm_abcd…wxyz`. */
export function maskApiKey(prefix: string, suffix: string): string {
  return `${prefix}…${suffix}`;
}
