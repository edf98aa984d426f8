import "server-only";
/**
 * What the server knows of the request being served, for the code that runs inside it: its id for
 * every log line (./log.ts), and the client's address, which the production server reads from the
 * socket before handing a request to Next, whose route handlers see no socket (./client-ip.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { AuditActor } from "~/shared/audit-log";

export interface RequestScope {
  requestId?: string;
  /** Set by the production server: the client's address, null when it cannot be known. */
  clientIp?: string | null;
  /** Who the changes made now are by, for the audit log (src/server/audit/context.ts): set by the procedure middleware, the CLI and the job runner. */
  actor?: AuditActor;
  /** The client's User-Agent, recorded with the actor's changes. */
  userAgent?: string | null;
}

const scope = new AsyncLocalStorage<RequestScope>();

/** Runs `work` (awaited work included) inside the request's scope, adding `values` to any it is already in. */
export function inRequestScope<T>(values: RequestScope, work: () => T): T {
  const current = scope.getStore();
  return scope.run(current ? { ...current, ...values } : values, work);
}

/** The scope of the request being served, if any. */
export function currentRequestScope(): RequestScope | undefined {
  return scope.getStore();
}
