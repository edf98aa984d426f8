import { getAuth } from "~/server/auth";

export const dynamic = "force-dynamic";

/** better-auth's endpoints: sign-up, sign-in, sign-out, session (under /api/auth). */
function handler(req: Request): Promise<Response> {
  return getAuth().handler(req);
}

export { handler as GET, handler as POST };
