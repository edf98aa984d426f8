import "server-only";
import { APIError, isAPIError } from "better-auth/api";
import { PASSWORD_MAX_LENGTH } from "~/shared/account-credentials";
import { endpointPolicy, isCodeStep } from "./endpoint-policies";
import { requestSession, type HookContext } from "./hook-context";
import { authThrottle, emailSubject } from "./sign-in-throttle";
import { claimTotpStep, invalidCode, pendingSignInUser, twoFactorPlugin } from "./two-factor";

/** What a credential check's before guard learned, for its after guard (keyed by the request). */
const credentialChecks = new WeakMap<Request, { subject: string }>();

/** The session of an account setting (signed out, better-auth refuses those itself); sign-in has none yet. */
const settingSession = (ctx: HookContext) => (ctx.path === "/sign-in/email" ? null : requestSession(ctx));

/** Refuses a password that is not the account's (as better-auth words it). */
async function assertPassword(ctx: HookContext, userId: string, password: string): Promise<void> {
  const hash = (await ctx.context.internalAdapter.findCredentialAccount(userId))?.password;
  const matches = Boolean(hash) && password.length <= PASSWORD_MAX_LENGTH && (await ctx.context.password.verify({ hash: hash!, password }));
  if (!matches) throw new APIError("BAD_REQUEST", { message: "Invalid password", code: "INVALID_PASSWORD" });
}

/** Deleting an account, changing its email or adding a passkey always takes its password, however fresh the session. */
export function requirePassword(ctx: HookContext): void {
  if (typeof ctx.body?.password === "string" && ctx.body.password) return;
  throw new APIError("BAD_REQUEST", { message: `password is required to ${endpointPolicy(ctx.path)?.action}`, code: "PASSWORD_REQUIRED" });
}

/** Every sign-in takes the second factor: no device is trusted to skip it. */
export function refuseTrustedDevice(ctx: HookContext): void {
  if (ctx.body?.trustDevice !== undefined) {
    throw new APIError("BAD_REQUEST", { message: "trustDevice is not offered: every sign-in takes a code", code: "INVALID_PARAMETER" });
  }
}

/**
 * The per-email backoff (docs/security.md, Sign-in): of the email signed in with, for the account
 * settings; for a code at sign-in, of the account whose password was just given.
 */
export async function throttleByEmail(ctx: HookContext): Promise<void> {
  const session = await settingSession(ctx);
  const policy = endpointPolicy(ctx.path);
  const pendingSignIn = !session && policy && isCodeStep(policy) ? await pendingSignInUser(ctx) : undefined;
  const email = ctx.path === "/sign-in/email" ? ctx.body?.email : (session?.user.email ?? pendingSignIn?.email);
  if (email === undefined) return;
  const subject = emailSubject(email);
  const waitSeconds = await authThrottle().perEmail.attempt(subject);
  if (waitSeconds > 0) {
    throw new APIError(
      "TOO_MANY_REQUESTS",
      { message: `Too many failed password attempts for this email; try again in ${waitSeconds} s`, code: "TOO_MANY_SIGN_IN_ATTEMPTS" },
      { "Retry-After": String(waitSeconds) },
    );
  }
  if (ctx.request) credentialChecks.set(ctx.request, { subject });
}

/** A success resets the email's backoff; a right password is not yet a sign-in while its second factor is to come. */
export async function forgiveEmailOnSuccess(ctx: HookContext): Promise<void> {
  const check = ctx.request && credentialChecks.get(ctx.request);
  const succeeded = ctx.path === "/sign-in/email" ? Boolean(ctx.context.newSession && !ctx.context.newSession.user.twoFactorEnabled) : !isAPIError(ctx.context.returned);
  if (check && succeeded) await authThrottle().perEmail.succeeded(check.subject);
}

export async function checkPasswordFirst(ctx: HookContext): Promise<void> {
  const session = await requestSession(ctx);
  if (session) await assertPassword(ctx, session.user.id, String(ctx.body?.password ?? ""));
}

/**
 * better-auth's disable takes only the password, and its passkey registration nothing: the app
 * also takes a code from the authenticator app or a backup code (which is used up).
 */
export async function checkAddedCode(ctx: HookContext): Promise<void> {
  const session = await requestSession(ctx);
  const policy = endpointPolicy(ctx.path);
  if (!session || (policy?.code === "required while on" && !session.user.twoFactorEnabled)) return;
  const code = typeof ctx.body?.code === "string" ? ctx.body.code.trim() : "";
  if (!code) throw new APIError("BAD_REQUEST", { message: `code is required to ${policy?.action}`, code: "CODE_REQUIRED" });
  const claimed = await claimTotpStep(ctx, session.user.id, code);
  const check = { ...ctx, method: "POST" as const, body: { code, disableSession: true }, asResponse: false, returnHeaders: false };
  const verified = claimed === "claimed" || (claimed === "no match" && (await twoFactorPlugin.endpoints.verifyBackupCode(check).then(() => true, () => false)));
  if (!verified) throw invalidCode();
}

/** A code from the app is taken once (better-auth then checks it as usual). */
export async function takeTotpStepOnce(ctx: HookContext): Promise<void> {
  const session = await requestSession(ctx);
  const codeOwnerId = session?.user.id ?? (await pendingSignInUser(ctx))?.id;
  if (codeOwnerId && (await claimTotpStep(ctx, codeOwnerId, String(ctx.body?.code ?? ""))) === "replayed") throw invalidCode();
}
