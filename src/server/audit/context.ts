import "server-only";
/**
 * Who makes the changes being written, for the audit log (docs/audit-log.md). The triggers on the
 * audited tables read it from blogmgr.change_source, the transaction's setting the blog revisions
 * already read (src/server/blogs/change-source.ts); the app puts it there in every transaction it
 * writes in while an actor is known (src/server/db/audit-writes.ts). The actor is known inside
 * `actingAs`: the procedure middleware's mutations (a member or an API key, with the request's
 * address, user agent and id), a CLI command, a job.
 */
import { clientIpOfWebRequest } from "~/server/http/client-ip";
import { currentRequestScope, inRequestScope } from "~/server/http/request-scope";
import type { AuditActor } from "~/shared/audit-log";

export type { AuditActor };

/** At most this many characters of a user agent are kept (a client may send kilobytes). */
const MAX_USER_AGENT = 512;

/** Runs `work` (awaited work included) with its changes recorded as `actor`'s, from the request's address and user agent when given. */
export function actingAs<T>(actor: AuditActor, work: () => T, request?: { headers: Headers }): T {
  if (!request) return inRequestScope({ actor }, work);
  const userAgent = request.headers.get("user-agent")?.slice(0, MAX_USER_AGENT) ?? null;
  return inRequestScope({ actor, userAgent, clientIp: clientIpOfWebRequest(request.headers) }, work);
}

/** The actor a procedure's caller is: a member of the publication, or an API key (which keeps its own name when its maker leaves). */
export function actorOf(caller: ActorCaller): AuditActor {
  if (caller.kind === "apiKey") return { kind: "api_key", id: caller.key.id, name: caller.key.name };
  return { kind: "member", id: caller.member.userId, name: caller.member.name || caller.member.email || undefined };
}

/** A procedure's caller (src/server/accounts/caller.ts), as far as the log names it. */
type ActorCaller =
  | { kind: "apiKey"; key: { id: string; name: string } }
  | { kind: "member"; member: { userId: string; name?: string | null; email?: string | null } };

/**
 * What the triggers record of the current actor (docs/audit-log.md), as the JSON merged into
 * blogmgr.change_source; undefined when no actor is known (the change is then the "database"'s).
 */
export function auditSetting(): string | undefined {
  const scope = currentRequestScope();
  const actor = scope?.actor;
  if (!actor) return undefined;
  const values: Record<string, string | null | undefined> = {
    actorKind: actor.kind,
    actorId: actor.id,
    actorName: actor.name,
    ip: scope.clientIp,
    userAgent: scope.userAgent,
    requestId: scope.requestId,
  };
  return JSON.stringify(Object.fromEntries(Object.entries(values).filter(([, value]) => value != null && value !== "")));
}
