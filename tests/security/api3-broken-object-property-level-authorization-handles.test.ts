/**
 * OWASP API Security Top 10 (2023), API3: Broken Object Property Level Authorization, on the
 * account's handle through better-auth's endpoints: it changes only under the rules of sign-up
 * (format, reserved, free). The plan and the blog and key properties: the file without "-handles".
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, db } from "../support/api";
import { freshLoopbackAddress, httpRequest, sessionCookie, uniqueEmail } from "../support/http-client";

interface Owner {
  id: string;
  handle: string;
  cookie: string;
}

const freshHandle = () => `h-${crypto.randomUUID().slice(0, 12)}`;

async function signUp(extra: Record<string, unknown> = {}): Promise<Owner> {
  const email = uniqueEmail();
  const handle = freshHandle();
  const answer = await httpRequest(apiBaseUrl(), "/api/auth/sign-up/email", {
    method: "POST",
    body: { email, password: "correct-horse-battery", name: "Owner", handle, ...extra },
    localAddress: freshLoopbackAddress(),
  });
  expect(answer.status, answer.body).toBe(200);
  const user = await db().user.findUniqueOrThrow({ where: { email } });
  // Sign-up starts no session (docs/security.md, No account enumeration): signing in does.
  const signedIn = await httpRequest(apiBaseUrl(), "/api/auth/sign-in/email", {
    method: "POST",
    body: { email, password: "correct-horse-battery" },
    localAddress: freshLoopbackAddress(),
  });
  return { id: user.id, handle, cookie: sessionCookie(signedIn) };
}

function updateUser(owner: Owner, body: Record<string, unknown>) {
  return httpRequest(apiBaseUrl(), "/api/auth/update-user", { method: "POST", headers: { cookie: owner.cookie }, body });
}

const stored = (owner: Owner) => db().user.findUniqueOrThrow({ where: { id: owner.id }, select: { handle: true } });

let owner: Owner;
let other: Owner;

beforeAll(async () => {
  [owner, other] = await Promise.all([signUp(), signUp()]);
});

describe("changing the handle through /api/auth/update-user", () => {
  it.each([
    ["a reserved handle", "admin", 400, "INVALID_HANDLE", "the handle admin is reserved"],
    ["a handle that names a route of the app", "login", 400, "INVALID_HANDLE", "the handle login is reserved"],
    ["a malformed handle", "Bad Handle", 400, "INVALID_HANDLE", "handle must be 3 to 30 characters"],
    ["an empty handle", "", 400, "INVALID_HANDLE", "handle must be"],
    ["a handle that is not text", 42, 400, "INVALID_HANDLE", "handle must be"],
  ])("refuses %s, and the handle stays", async (_, handle, status, code, message) => {
    const answer = await updateUser(owner, { handle, name: "Renamed" });
    expect(answer.status).toBe(status);
    expect(answer.json().code).toBe(code);
    expect(answer.json().message).toContain(message);
    expect((await stored(owner)).handle).toBe(owner.handle);
  });

  it("refuses another account's handle with 422 HANDLE_TAKEN, and the handle stays", async () => {
    const answer = await updateUser(owner, { handle: other.handle });
    expect(answer.status).toBe(422);
    expect(answer.json()).toMatchObject({ code: "HANDLE_TAKEN", message: `the handle ${other.handle} is already taken` });
    expect((await stored(owner)).handle).toBe(owner.handle);
    expect((await stored(other)).handle).toBe(other.handle);
  });

  it("accepts a valid free handle (and the owner's own)", async () => {
    const handle = freshHandle();
    expect((await updateUser(owner, { handle: owner.handle })).status).toBe(200);
    const answer = await updateUser(owner, { handle });
    expect(answer.status, answer.body).toBe(200);
    expect((await stored(owner)).handle).toBe(handle);
    owner.handle = handle;
  });

  it("is refused without a session", async () => {
    const answer = await httpRequest(apiBaseUrl(), "/api/auth/update-user", { method: "POST", body: { handle: freshHandle() } });
    expect(answer.status).toBe(401);
  });
});
