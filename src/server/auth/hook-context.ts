import "server-only";
import { getSessionFromCtx, type createAuthMiddleware } from "better-auth/api";

/** What a guard (src/server/auth/guards.ts) is handed: better-auth's context of the endpoint called. */
export type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/**
 * `lookup`, made once per request and shared by every guard that asks (the guards of one endpoint
 * would each query it again); a call made inside the server, without a request, looks it up each time.
 */
export function oncePerRequest<T>(lookup: (ctx: HookContext) => Promise<T>): (ctx: HookContext) => Promise<T> {
  const found = new WeakMap<Request, Promise<T>>();
  return (ctx) => {
    if (!ctx.request) return lookup(ctx);
    let result = found.get(ctx.request);
    if (!result) found.set(ctx.request, (result = lookup(ctx)));
    return result;
  };
}

/** The signed-in session the request came with, as the before guards see it (better-auth sets none on the context before its endpoint runs). */
export const requestSession = oncePerRequest((ctx) => getSessionFromCtx(ctx));

/** The origin the links of an email start with. Read only where an email is sent: a call made inside the server (getSession) has no base URL. */
export function emailOrigin(ctx: HookContext): string {
  return new URL(ctx.context.baseURL).origin;
}

/** Ends every session of the owner's but the one kept (the request's own, if any). */
export async function endOtherSessions(ctx: HookContext, userId: string, keptToken: string | undefined): Promise<void> {
  const sessions = await ctx.context.internalAdapter.listSessions(userId);
  await Promise.all(sessions.filter((s) => s.token !== keptToken).map((s) => ctx.context.internalAdapter.deleteSession(s.token)));
}
