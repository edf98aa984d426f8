import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { after } from "next/server";
import { appRouter } from "~/server/api/root";
import { createDashboardContext } from "~/server/api/trpc";

export const dynamic = "force-dynamic";

/** The dashboard's tRPC endpoint: session-authenticated procedures (the public API is /api/v1). */
function handler(req: Request): Promise<Response> {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    router: appRouter,
    req,
    createContext: () => createDashboardContext(req, (task) => after(task)),
  });
}

export { handler as GET, handler as POST };
