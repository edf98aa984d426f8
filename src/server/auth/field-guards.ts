import "server-only";
import { APIError } from "better-auth/api";
import { handleTaken } from "~/server/accounts/own-publication";
import { getDb } from "~/server/db";
import { bioProblem, BIO_RULE, normalizedBio } from "~/shared/bio";
import { DISPLAY_NAME_RULE, displayNameProblem } from "~/shared/display-name";
import { handleProblem } from "~/shared/handle";
import { PASSKEY_NAME_MAX_LENGTH } from "~/shared/passkey-name";
import { findUnstorableText } from "~/shared/storable-text";
import { requestSession, type HookContext } from "./hook-context";

export function normalizedHandle(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/**
 * Refuses a handle that breaks the rules of src/shared/handle.ts or belongs to another account:
 * every way a handle is chosen or changed takes a free one. Checked before better-auth opens its
 * transaction: a query of ours inside it would wait forever on embedded PGlite's single session.
 * The unique index still settles races.
 */
async function assertHandleAvailable(value: unknown, ownerId?: string): Promise<void> {
  const handle = normalizedHandle(value);
  const problem = handleProblem(handle);
  if (problem) throw new APIError("BAD_REQUEST", { message: problem, code: "INVALID_HANDLE" });
  if (await handleTaken(getDb(), handle, ownerId)) {
    throw new APIError("UNPROCESSABLE_ENTITY", { message: `the handle ${handle} is already taken`, code: "HANDLE_TAKEN" });
  }
}

/** Refuses a display name that breaks the rule of src/shared/display-name.ts. */
function assertDisplayName(value: unknown): void {
  if (typeof value === "string" && !displayNameProblem(value.trim())) return;
  throw new APIError("BAD_REQUEST", { message: DISPLAY_NAME_RULE, code: "INVALID_NAME" });
}

/** Refuses a bio that breaks the rule of src/shared/bio.ts (absent: left as it is). */
function assertBio(body: HookContext["body"]): void {
  if (!body || typeof body !== "object" || !("bio" in body) || body.bio === undefined) return;
  if (typeof body.bio === "string" && !bioProblem(normalizedBio(body.bio))) return;
  throw new APIError("BAD_REQUEST", { message: BIO_RULE, code: "INVALID_BIO" });
}

/** The app shows no picture of an owner: better-auth's image field would keep any text sent. */
function assertNoImage(ctx: HookContext): void {
  if (ctx.body?.image != null) {
    throw new APIError("BAD_REQUEST", { message: "image is not accepted: accounts have no picture", code: "INVALID_PARAMETER" });
  }
}

/** A plan is the publication's, set by the operator (the CLI's `plan set`), never by its people. */
function assertNoPlan(ctx: HookContext): void {
  if (ctx.body && typeof ctx.body === "object" && "plan" in ctx.body) {
    throw new APIError("BAD_REQUEST", { message: "plan is not accepted: a publication's plan is set by the operator", code: "INVALID_PARAMETER" });
  }
}

/** Text PostgreSQL cannot store as sent is refused by field, as on the API (src/shared/storable-text.ts). */
export function refuseUnstorableText(ctx: HookContext): void {
  const unstorable = findUnstorableText(ctx.body);
  if (unstorable) throw new APIError("BAD_REQUEST", { message: unstorable.problem, code: "INVALID_PARAMETER" });
}

export async function checkNewOwnerFields(ctx: HookContext): Promise<void> {
  assertDisplayName(ctx.body?.name);
  await assertHandleAvailable(ctx.body?.handle);
  assertNoImage(ctx);
  assertNoPlan(ctx);
  assertBio(ctx.body);
}

export async function checkOwnerUpdateFields(ctx: HookContext): Promise<void> {
  assertNoImage(ctx);
  assertNoPlan(ctx);
  if (!ctx.body || typeof ctx.body !== "object") return;
  if ("name" in ctx.body) assertDisplayName(ctx.body.name);
  assertBio(ctx.body);
  const session = "handle" in ctx.body ? await requestSession(ctx) : null;
  // Signed out: better-auth refuses the update itself.
  if (session) await assertHandleAvailable(ctx.body.handle, session.user.id);
}

export function checkPasskeyName(ctx: HookContext): void {
  if (!ctx.body || typeof ctx.body !== "object") return;
  const name = typeof ctx.body.name === "string" ? ctx.body.name.trim() : "";
  if (!name || name.length > PASSKEY_NAME_MAX_LENGTH) {
    throw new APIError("BAD_REQUEST", { message: `name must be 1 to ${PASSKEY_NAME_MAX_LENGTH} characters`, code: "INVALID_NAME" });
  }
}
