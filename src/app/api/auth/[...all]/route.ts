import { handleAuthRequest } from "@blogmgr/server";

export const dynamic = "force-dynamic";

/** better-auth's endpoints: sign-up, sign-in, sign-out, session (under /api/auth). */
export { handleAuthRequest as GET, handleAuthRequest as POST };
