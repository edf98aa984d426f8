import { after } from "next/server";
import { handleDashboardRequest } from "@blogmgr/server";

export const dynamic = "force-dynamic";

/** The dashboard's tRPC endpoint: session-authenticated procedures (the public API is /api/v1). */
function handler(req: Request): Promise<Response> {
  return handleDashboardRequest(req, (task) => after(task));
}

export { handler as GET, handler as POST };
