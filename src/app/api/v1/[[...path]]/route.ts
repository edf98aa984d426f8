import { after } from "next/server";
import { handleApiRequest } from "~/server/api/rest/handler";

export const dynamic = "force-dynamic";

function handler(req: Request): Promise<Response> {
  return handleApiRequest(req, { afterResponse: (task) => after(task) });
}

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as OPTIONS, handler as HEAD };
