// prisma/functions.sql is where a function's or trigger's current definition is read (each
// migration may replace one): it must hold exactly those of the migrated test database.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { query } from "../../scripts/lib/scratch-database";

const FUNCTIONS_FILE = new URL("../../prisma/functions.sql", import.meta.url);

// The app's schema only: graphile_worker's functions live in a schema of their own, and an
// extension's are the extension's.
const DEFINITIONS_SQL = `
  SELECT rtrim(pg_get_functiondef(p.oid), E'\\n') AS definition
  FROM pg_proc AS p
  WHERE p.pronamespace = current_schema()::regnamespace AND p.prokind IN ('f', 'p')
    AND NOT EXISTS (SELECT 1 FROM pg_depend AS d WHERE d.objid = p.oid AND d.deptype = 'e')
  UNION ALL
  SELECT pg_get_triggerdef(t.oid)
  FROM pg_trigger AS t JOIN pg_class AS c ON c.oid = t.tgrelid
  WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal`;

/** Each statement of `sql` (a CREATE each, after a leading comment) by what it creates, its whitespace normalised. */
function definitions(sql: string): Record<string, string> {
  const byName: Record<string, string> = {};
  for (const statement of sql.split(/^(?=CREATE )/m).filter((part) => part.startsWith("CREATE "))) {
    const text = statement.replace(/;\s*$/, "").replace(/\s+/g, " ").trim();
    const name = /^CREATE OR REPLACE (FUNCTION [^(]+\([^)]*\))/.exec(text)?.[1] ?? /^CREATE TRIGGER (\S+) .*? ON (\S+) /.exec(text)?.slice(1).join(" ON ");
    expect(name, `a statement of neither kind: ${text.slice(0, 80)}`).toBeDefined();
    byName[name!] = text;
  }
  return byName;
}

describe("prisma/functions.sql", () => {
  it("holds the definition of every function and trigger of the app's schema, as the migrations leave them", async () => {
    const rows = await query<{ definition: string }>(process.env.DATABASE_URL!, DEFINITIONS_SQL);
    const database = definitions(rows.map((row) => `${row.definition};\n`).join("\n"));
    expect(Object.keys(database)).toContain("FUNCTION public.blog_api_view(b blog)");
    expect(definitions(await readFile(FUNCTIONS_FILE, "utf8"))).toEqual(database);
  });
});
