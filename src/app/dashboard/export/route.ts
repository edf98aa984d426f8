import { handleExportRequest } from "@blogmgr/server";

export const dynamic = "force-dynamic";

/** The dashboard's "Download everything (.zip)": the signed-in owner's export (docs/migrating.md, Export). */
export function GET(req: Request): Promise<Response> {
  return handleExportRequest(req);
}
