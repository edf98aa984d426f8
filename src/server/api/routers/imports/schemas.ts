import "server-only";
import { z } from "zod";
import { importSchema as sharedImportSchema } from "~/shared/imports";
import { successEnvelope } from "../blogs/schemas";

/** The API's contract for imports (docs/migrating.md, How an import runs), as the OpenAPI document shows it. */

export const importSchema = sharedImportSchema.meta({ id: "Import" });

/**
 * The upload, as both doors hand it over: each streams the multipart body's `file` part to disk
 * and hands the procedure that file as a Blob, with the `oldUrl` field (src/server/api/import-upload.ts).
 */
export const createImportInput = z.preprocess(
  (value) => (value instanceof FormData ? { file: value.get("file") ?? undefined, oldUrl: value.get("oldUrl") ?? undefined } : value),
  z.object({
    file: z.instanceof(Blob, { message: "file must be the export's file" }).meta({ description: "The export file", format: "binary" }),
    oldUrl: z
      .string({ error: "oldUrl must be a string" })
      .max(2000, { error: "oldUrl must be at most 2000 characters" })
      .optional()
      .meta({ description: "The old site's address (absolute http(s) URL): each imported post's old permalink path then answers 301 to its new address" }),
  }),
);

export const importIdParams = { importId: z.string().min(1).meta({ description: "The import's id" }) };

export const importOutput = successEnvelope(z.object({ import: importSchema }));
