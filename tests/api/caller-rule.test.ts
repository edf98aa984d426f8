import { describe, expect, it } from "vitest";
import { appRouter } from "~/server/api/root";
import { createTRPCContext } from "~/server/api/trpc";
import { PERMISSIONS } from "~/shared/permissions";
import { PROCEDURES } from "../support/dashboard";

/**
 * The one rule deciding what a caller may do (src/server/accounts/caller.ts), applied by every
 * procedure whatever door the call came in: a key, even holding every permission, is refused the
 * owner-only operations (ownerProcedure's), before any of their work.
 */
const keyCaller = {
  kind: "apiKey" as const,
  key: { id: "key", name: "key", accountId: "account", plan: "free" as const, permissions: [...PERMISSIONS], lastUsedAt: null },
};

function callerContext() {
  return createTRPCContext({
    headers: new Headers(),
    url: new URL("http://localhost/api/v1"),
    resHeaders: new Headers(),
    afterResponse: () => undefined,
    caller: keyCaller,
  });
}

const OWNER_ONLY = PROCEDURES.filter((p) => p.meta.ownerOnly);

describe("every procedure", () => {
  it("declares who may call it: the permission a key needs, or the owner alone (ownerProcedure), never both nor neither", () => {
    const undeclared = PROCEDURES.filter((p) => (p.meta.permission === undefined) === (p.meta.ownerOnly === undefined));
    expect(undeclared.map((p) => p.path)).toEqual([]);
  });

  it("serves /api/v1 only when a key may call it", () => {
    expect(PROCEDURES.filter((p) => p.openapi && p.meta.ownerOnly).map((p) => p.path)).toEqual([]);
  });
});

describe("a key caller", () => {
  it("has owner-only procedures to be refused", () => {
    expect(OWNER_ONLY.map((p) => p.path).sort()).toEqual([
      "blogs.editor.create",
      "blogs.editor.update",
      "blogs.previews.create",
      "blogs.previews.list",
      "blogs.previews.revoke",
      "images.deleteMany",
      "images.library",
      "images.storage",
      "imports.list",
      "imports.undo",
      "keys.activity",
      "keys.create",
      "keys.deactivate",
      "keys.endGrace",
      "keys.list",
      "keys.roll",
      "keys.update",
      "members.changeRole",
      "members.invite",
      "members.list",
      "members.publications",
      "members.remove",
      "members.revokeInvitation",
      "members.switchPublication",
      "members.transferOwnership",
      "newsletters.audience",
      "newsletters.sendTest",
      "publication.domainRecord",
      "publication.preview",
      "publication.update",
      "publication.verifyDomain",
      "subscribers.add",
      "subscribers.counts",
      "subscribers.export",
      "subscribers.import",
      "usage.analytics",
      "usage.rateLimit",
      "webhooks.create",
      "webhooks.delete",
      "webhooks.deliveries",
      "webhooks.list",
      "webhooks.resend",
      "webhooks.rollSecret",
      "webhooks.sendTest",
      "webhooks.setEnabled",
      "webhooks.setEventTypes",
    ]);
  });

  it.each(OWNER_ONLY.map((p) => p.path))("is refused %s, holding every permission", async (path) => {
    // The procedure at its dotted path in the caller (routers nest: blogs.previews.create).
    const call = path.split(".").reduce<unknown>((node, segment) => (node as Record<string, unknown>)[segment], appRouter.createCaller(callerContext()));
    await expect((call as (input: unknown) => Promise<unknown>)({ id: "x", blogId: "x", name: "k", permissions: ["read:blogs"] })).rejects.toMatchObject({
      code: "FORBIDDEN",
      apiCode: "INSUFFICIENT_PERMISSIONS",
    });
  });
});
