import "server-only";
import { hashPassword } from "better-auth/crypto";
import { z } from "zod";
import type { Plan } from "~/shared/plans";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import { normalizeEmail } from "./find-account";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/shared/account-credentials";
import { displayNameProblem } from "~/shared/display-name";
import { firstFreeHandle, handleFromEmail, handleProblem } from "~/shared/handle";
import { parsePlan } from "./plan";
import { betterAuthId, createOwnPublication, handleTaken } from "./own-publication";

export interface CreateAccountInput {
  email: string;
  password: string;
  /** Defaults to the handle. */
  name?: string;
  /** Derived from the email and made unique when absent. */
  handle?: string;
  plan?: string;
}

export interface CreatedAccount {
  id: string;
  email: string;
  handle: string;
  plan: Plan;
}

/**
 * Creates an account that better-auth's email+password sign-in accepts: a `user` row and its
 * `credential` account row holding a better-auth password hash, in one transaction. Its address
 * counts as verified: the operator made it.
 */
export async function createAccount(db: Db, input: CreateAccountInput): Promise<CreatedAccount> {
  const email = normalizeEmail(input.email);
  if (!z.email().safeParse(email).success) {
    throw new DomainError("INVALID_PARAMETER", `email must be a valid email address, got "${input.email}"`);
  }
  if (input.password.length < PASSWORD_MIN_LENGTH || input.password.length > PASSWORD_MAX_LENGTH) {
    throw new DomainError("INVALID_PARAMETER", `password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  }
  const handleIssue = input.handle === undefined ? null : handleProblem(input.handle);
  if (handleIssue) throw new DomainError("INVALID_PARAMETER", handleIssue);
  const nameIssue = input.name === undefined ? null : displayNameProblem(input.name.trim());
  if (nameIssue) throw new DomainError("INVALID_PARAMETER", nameIssue);
  const plan = input.plan === undefined ? "free" : parsePlan(input.plan);
  // Hashing (scrypt) takes a moment: done before the transaction opens.
  const passwordHash = await hashPassword(input.password);

  return db.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email }, select: { id: true } })) {
      throw new DomainError("RESOURCE_CONFLICT", `an account with email ${email} already exists`);
    }
    const isTaken = (handle: string) => handleTaken(tx, handle);
    if (input.handle !== undefined && (await isTaken(input.handle))) {
      throw new DomainError("RESOURCE_CONFLICT", `the handle ${input.handle} is already taken`);
    }
    const handle = input.handle ?? (await firstFreeHandle(handleFromEmail(email), isTaken));
    const id = betterAuthId();
    const name = input.name?.trim() ?? handle;
    await tx.user.create({
      data: {
        id,
        email,
        name,
        handle,
        // The operator vouches for the address (docs/security.md, Email verification).
        emailVerified: true,
        accounts: { create: { id: betterAuthId(), accountId: id, providerId: "credential", password: passwordHash } },
      },
    });
    await createOwnPublication(tx, { id, name, handle, plan });
    return { id, email, handle, plan };
  }, WAIT_FOR_A_CONNECTION);
}

/** Embedded PGlite runs one transaction at a time: under load, wait for it rather than fail after Prisma's 2 s. */
const WAIT_FOR_A_CONNECTION = { maxWait: 10_000 };
