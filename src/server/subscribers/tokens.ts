import "server-only";
import { createHash, randomBytes } from "node:crypto";

/**
 * The secrets in subscribers' links (docs/newsletters.md): 192 random bits, URL-safe. A
 * confirmation link's is kept as its SHA-256 only; the unsubscribe link's is in every email the
 * subscriber gets, so it is kept as is (it can only unsubscribe its own address).
 */
export const newSubscriberToken = () => randomBytes(24).toString("base64url");

export const subscriberTokenHash = (token: string) => createHash("sha256").update(token).digest("hex");
