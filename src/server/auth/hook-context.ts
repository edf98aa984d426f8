import "server-only";
import type { createAuthMiddleware } from "better-auth/api";

/** What a guard (src/server/auth/guards.ts) is handed: better-auth's context of the endpoint called. */
export type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The origin the links of an email start with. Read only where an email is sent: a call made inside the server (getSession) has no base URL. */
export function emailOrigin(ctx: HookContext): string {
  return new URL(ctx.context.baseURL).origin;
}

/** Ends every session of the owner's but the one kept (the request's own, if any). */
export async function endOtherSessions(ctx: HookContext, userId: string, keptToken: string | undefined): Promise<void> {
  const sessions = await ctx.context.internalAdapter.listSessions(userId);
  await Promise.all(sessions.filter((s) => s.token !== keptToken).map((s) => ctx.context.internalAdapter.deleteSession(s.token)));
}
