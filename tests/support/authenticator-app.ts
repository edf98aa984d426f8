import * as OTPAuth from "otpauth";

const PERIOD_MS = 30_000;

export interface AuthenticatorApp {
  /** A code of a later time step than any given before: the server takes each step's code once (docs/security.md, Two-factor sign-in). */
  nextCode(): Promise<string>;
  /** The code of the step last given, again (a replay). */
  lastCode(): string;
}

/**
 * An authenticator app holding the secret of an otpauth:// URI (or a base32 key). The server
 * accepts the code of the step before and after its clock's, so a fresh step is at most one step
 * ahead; further ahead, this waits for the clock.
 */
export function authenticatorApp(secret: { uri: string } | { base32: string }): AuthenticatorApp {
  const totp = "uri" in secret ? (OTPAuth.URI.parse(secret.uri) as OTPAuth.TOTP) : new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret.base32) });
  let lastStep = -Infinity;
  return {
    async nextCode() {
      const step = Math.max(Math.floor(Date.now() / PERIOD_MS), lastStep + 1);
      const waitMs = (step - 1) * PERIOD_MS - Date.now();
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs + 50));
      lastStep = step;
      return totp.generate({ timestamp: step * PERIOD_MS });
    },
    lastCode: () => totp.generate({ timestamp: lastStep * PERIOD_MS }),
  };
}
