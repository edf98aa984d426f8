import "server-only";
import { APIError, isAPIError } from "better-auth/api";
import { constantTimeEqual, symmetricDecrypt } from "better-auth/crypto";
import { twoFactor } from "better-auth/plugins";
import { createOTP } from "@better-auth/utils/otp";
import { randomInt } from "node:crypto";
import { getDb } from "~/server/db";
import { oncePerRequest, type HookContext } from "./hook-context";

/**
 * What backup codes are written with: lower-case letters and digits but the look-alikes (0, 1, i,
 * l, o), since they are read off a screen or a sheet of paper and typed back. Twelve of these 31
 * characters (about 59 bits) are worth better-auth's ten of 62.
 */
const BACKUP_CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

/** One backup code: three groups of four, e.g. `k7wq-3hzr-m2xe`. */
function backupCode(): string {
  const characters = Array.from({ length: 12 }, () => BACKUP_CODE_ALPHABET[randomInt(BACKUP_CODE_ALPHABET.length)]);
  return [0, 4, 8].map((start) => characters.slice(start, start + 4).join("")).join("-");
}

/** Two-factor sign-in with an authenticator app's codes; the guards also check its backup codes with it. */
export const twoFactorPlugin = twoFactor({
  issuer: "Blog Manager",
  // Ten single-use codes, stored encrypted with BETTER_AUTH_SECRET (better-auth's default).
  backupCodeOptions: { amount: 10, customBackupCodesGenerate: () => Array.from({ length: 10 }, backupCode) },
});

/** An authenticator app's codes (better-auth's defaults, RFC 6238): 6 digits a 30-second step, the steps before and after the server's clock accepted. */
const TOTP = { digits: 6, period: 30, window: 1 };

export const invalidCode = () => new APIError("UNAUTHORIZED", { message: "Invalid code", code: "INVALID_CODE" });

/**
 * Takes the time step of an authenticator app's code for the account, once: the code of a step
 * already taken, or of an earlier one, is refused, so a code seen over someone's shoulder or
 * caught in transit is worth nothing once used (docs/security.md, Two-factor sign-in). One
 * conditional UPDATE of the account's twoFactor row, so it holds across instances and racing
 * requests. "no match": not a code of the app's current steps (maybe a backup code).
 */
export async function claimTotpStep(ctx: HookContext, userId: string, code: string): Promise<"claimed" | "replayed" | "no match"> {
  const db = getDb();
  const twoFactor = await db.twoFactor.findFirst({ where: { userId }, select: { id: true, secret: true } });
  if (!twoFactor || !new RegExp(`^\\d{${TOTP.digits}}$`).test(code)) return "no match";
  const app = createOTP(await symmetricDecrypt({ key: ctx.context.secretConfig, data: twoFactor.secret }), TOTP);
  const now = Math.floor(Date.now() / 1000 / TOTP.period);
  for (let step = now - TOTP.window; step <= now + TOTP.window; step++) {
    if (!constantTimeEqual(await app.hotp(step), code)) continue;
    const { count } = await db.twoFactor.updateMany({
      where: { id: twoFactor.id, OR: [{ lastTotpStep: null }, { lastTotpStep: { lt: step } }] },
      data: { lastTotpStep: step },
    });
    return count === 1 ? "claimed" : "replayed";
  }
  return "no match";
}

/**
 * The account whose sign-in waits for its second factor: better-auth's signed two_factor cookie
 * names a verification row holding the user's id.
 */
export const pendingSignInUser = oncePerRequest(async (ctx): Promise<{ id: string; email: string } | undefined> => {
  const cookie = ctx.context.createAuthCookie("two_factor");
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!identifier) return undefined;
  const pending = await ctx.context.internalAdapter.findVerificationValue(identifier);
  return (pending && (await ctx.context.internalAdapter.findUserById(pending.value))) || undefined;
});

/** After a new authenticator secret: none of its codes has been taken yet. */
export async function forgetTakenTotpStep(ctx: HookContext): Promise<void> {
  const owner = ctx.context.session?.user;
  if (!owner || isAPIError(ctx.context.returned)) return;
  await getDb().twoFactor.updateMany({ where: { userId: owner.id }, data: { lastTotpStep: null } });
}
