import { describe, expect, it } from "vitest";
import {
  assignableRoles,
  changeRoleRefusal,
  invitableRoles,
  inviteRefusal,
  memberCapabilities,
  removeRefusal,
  revokeRefusal,
  seesInvitation,
  transferRefusal,
} from "~/server/members/rules";
import { ROLES, type Role } from "~/shared/roles";

/** Every role x every role, as the table of docs/teams.md says who may invite whom. */
const MAY_INVITE: Record<Role, Role[]> = {
  owner: ["administrator", "editor", "author", "contributor"],
  administrator: ["administrator", "editor", "author", "contributor"],
  editor: ["author", "contributor"],
  author: [],
  contributor: [],
};

const pairs = ROLES.flatMap((actor) => ROLES.map((role) => [actor, role] as const));

describe("member rules (src/server/members/rules.ts)", () => {
  it.each(pairs)("%s inviting as %s", (actor, role) => {
    const allowed = MAY_INVITE[actor].includes(role);
    expect(invitableRoles(actor).includes(role)).toBe(allowed);
    expect(inviteRefusal(actor, role) === null).toBe(allowed);
    expect(revokeRefusal(actor, role) === null).toBe(allowed);
    expect(seesInvitation(actor, role)).toBe(allowed);
  });

  it("nobody is ever invited as owner, and the refusals say why", () => {
    for (const actor of ROLES) expect(inviteRefusal(actor, "owner")).toMatch(/transfers the publication/);
    expect(inviteRefusal("editor", "administrator")).toBe("As an editor you may invite only authors and contributors");
    expect(inviteRefusal("contributor", "author")).toBe("As a contributor you may not invite anyone");
  });

  it.each(pairs)("%s changing the role of a member who is %s", (actor, target) => {
    for (const role of ROLES) {
      const allowed = (actor === "owner" || actor === "administrator") && target !== "owner" && role !== "owner";
      expect(changeRoleRefusal(actor, { role: target, isActor: false }, role) === null, `to ${role}`).toBe(allowed);
      expect(assignableRoles(actor, target).includes(role)).toBe(allowed);
    }
    // Never one's own role.
    expect(changeRoleRefusal(actor, { role: actor, isActor: true }, "contributor")).not.toBeNull();
  });

  it.each(pairs)("%s removing a member who is %s", (actor, target) => {
    const allowed = (actor === "owner" || actor === "administrator") && target !== "owner";
    expect(removeRefusal(actor, { role: target, isActor: false }) === null).toBe(allowed);
  });

  it.each(ROLES)("%s leaving: everyone but the owner", (actor) => {
    expect(removeRefusal(actor, { role: actor, isActor: true }) === null).toBe(actor !== "owner");
    expect(memberCapabilities(actor).leaves).toBe(actor !== "owner");
  });

  it.each(ROLES)("%s transferring the publication: the owner alone, to someone else", (actor) => {
    expect(transferRefusal(actor, { isActor: false }) === null).toBe(actor === "owner");
    expect(transferRefusal(actor, { isActor: true })).not.toBeNull();
    expect(memberCapabilities(actor).transfers).toBe(actor === "owner");
  });
});
