import "server-only";
import { z } from "zod";
import { callerAccount } from "~/server/accounts/caller";
import { createImport, findImport, importView, listImports, undoImport } from "~/server/imports/imports";
import { READ_FORMATS } from "~/server/imports/detect-format";
import { MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_UNCOMPRESSED_BYTES, MAX_IMPORT_BYTES } from "~/shared/imports";
import { MAX_TAGS } from "~/shared/tags";
import { createTRPCRouter, ownerProcedure, procedure } from "../../trpc";
import { createImportInput, importIdParams, importOutput } from "./schemas";

const MB = 1024 * 1024;

const createImportProcedure = procedure
  .meta({
    permission: "write:blogs",
    minRole: "administrator",
    openapi: {
      method: "POST",
      path: "/imports",
      tags: ["Imports"],
      summary: "Import another platform's export",
      description:
        "Send the export as multipart/form-data with a `file` part, and optionally an `oldUrl` field (the old site's absolute http(s) address). " +
        `Read: ${READ_FORMATS}, told by the content, never the name; anything else is a 400 INVALID_PARAMETER naming these formats. ` +
        `At most ${MAX_IMPORT_BYTES / MB} MB (413 PAYLOAD_TOO_LARGE beyond); an archive at most ${MAX_ARCHIVE_ENTRIES.toLocaleString("en-US")} entries ` +
        `and ${MAX_ARCHIVE_UNCOMPRESSED_BYTES / MB} MB uncompressed, no entry escaping it; XML without DTDs or entities. ` +
        "The answer is a 202 with the import `queued`: it runs in the background; follow it with GET /imports/{importId} until `done` or `failed`. " +
        "Mapping: each post becomes a blog with its slug (a taken one gets a suffix, reported), published posts published with their date, " +
        `future ones scheduled, the rest drafts; categories and tags as tags (the first ${MAX_TAGS}, the cut reported); HTML as Markdown; ` +
        "the images the posts use become the account's images; pages, comments, attachments and the like are skipped and counted; " +
        "Substack's email list becomes subscribers (existing addresses left as they are). Imported posts never email subscribers. " +
        "The same file imported again creates and changes nothing (`alreadyImported`). " +
        "With `oldUrl`, each post's old permalink path answers 301 to its new address, from /{handle}/{path} and the custom domain's /{path}.",
      successDescription: "The import, queued",
      contentTypes: ["multipart/form-data"],
    },
    successStatus: 202,
    rawBody: "import",
    errors: ["INVALID_PARAMETER", "MISSING_REQUIRED_FIELD", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"],
  })
  .input(createImportInput)
  .output(importOutput)
  .mutation(async ({ ctx, input }) => {
    const account = callerAccount(ctx.caller);
    const fileName = input.file instanceof File ? input.file.name : "";
    const row = await createImport(ctx.db, account.id, { file: input.file, fileName, oldUrl: input.oldUrl });
    return { success: true as const, data: { import: importView(row) } };
  });

const getImportProcedure = procedure
  .meta({
    permission: "read:blogs",
    minRole: "administrator",
    openapi: {
      method: "GET",
      path: "/imports/{importId}",
      tags: ["Imports"],
      summary: "Get an import",
      description:
        "The import's status (`queued`, `running`, `done`, `failed`), its progress (source items gone through, of `total` once counted) " +
        "and its report so far: posts imported, already imported, skipped by kind, changed (slug, tags, content, status), images brought in or failed, " +
        "subscribers added or already present, with the first 200 items of each list. `error` says why a failed import failed.",
    },
    errors: ["RESOURCE_NOT_FOUND"],
  })
  .input(z.object(importIdParams))
  .output(importOutput)
  .query(async ({ ctx, input }) => {
    const row = await findImport(ctx.db, callerAccount(ctx.caller).id, input.importId);
    return { success: true as const, data: { import: importView(row) } };
  });

/** The dashboard's: the account's latest imports. */
const listImportsProcedure = ownerProcedure.meta({ minRole: "administrator" }).query(async ({ ctx }) => {
  const rows = await listImports(ctx.db, callerAccount(ctx.caller).id);
  return { imports: rows.map(importView) };
});

/** The dashboard's "undo this import": what it created is deleted (docs/migrating.md, How an import runs). */
const undoImportProcedure = ownerProcedure.meta({ minRole: "administrator" })
  .meta({ changesPublicPages: true })
  .input(z.object(importIdParams))
  .mutation(async ({ ctx, input }) => {
    const row = await undoImport(ctx.db, callerAccount(ctx.caller).id, input.importId);
    return { import: importView(row) };
  });

/** Imports: started and followed over the API (/api/v1) and the dashboard (/api/trpc), listed and undone in the dashboard. */
export const importsRouter = createTRPCRouter({
  create: createImportProcedure,
  get: getImportProcedure,
  list: listImportsProcedure,
  undo: undoImportProcedure,
});
