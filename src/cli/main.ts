// The operator CLI (README, Operator CLI): `npm run --silent cli -- <command> [flags]`. Prints the
// result as JSON on stdout; on failure, one line on stderr and exit code 1.
import { parseArgs } from "node:util";
import { PERMISSIONS } from "~/shared/permissions";
import { WEBHOOK_EVENT_TYPES } from "~/shared/webhook-events";
import { COMMANDS, type Command } from "./commands";
import { withDatabaseUrl } from "./database";

const USAGE = `Usage: npm run --silent cli -- <command> [flags]

Commands:
${Object.values(COMMANDS)
  .map((command) => `  ${command.usage}`)
  .join("\n")}

Permissions: ${PERMISSIONS.join(", ")}.
Webhook events: ${WEBHOOK_EVENT_TYPES.join(", ")} (docs/webhooks.md).
blogs import reads a JSON array of blog objects (title required; blogSlug, description, content,
isPublic, allowApiAccess, seoTitle, seoDescription, createdAt, updatedAt optional). A bad entry is
named by its index in the array (from 0) and nothing is imported.

subscribers import reads a CSV export of Substack, Ghost or Mailchimp, or email[,name] lines (at
most 5 MB and 50,000 rows); subscribers add and import make addresses active at once (the operator
attests consent), are not bound by the plan's quota, and leave addresses already there as they are.
subscribers export writes email,name,status,source,created_at,confirmed_at,unsubscribed_at.

import reads a WordPress export (WXR), a Ghost export (JSON or its zip), a Substack export zip or a
zip of Markdown files (format told by the content; docs/migrating.md) into the account, running it
here: progress on stderr, the import with its report as JSON. --old-url: the old site's address,
whose post paths then answer 301 to the new posts.

export writes the account's blogs (ghost.json, posts/*.md), images and subscribers as one zip
(docs/migrating.md, Export).

domain verify marks the publication's custom domain verified without DNS (it must be the domain
the owner set); it is served within 10 seconds.

Prints JSON on stdout; on failure, a message on stderr and exit code 1.
Database: DATABASE_URL; when unset, the embedded database of \`npm run dev\`/\`npm start\`
(opened for the command if the app is not running).
`;

async function main(args: string[]): Promise<void> {
  if (args.length === 0 || args[0] === "help" || args.includes("--help") || args.includes("-h")) {
    process.stdout.write(USAGE);
    return;
  }
  const twoWords = args.slice(0, 2).join(" ");
  const name = COMMANDS[twoWords] ? twoWords : args[0]!;
  const command = COMMANDS[name];
  if (!command) throw new Error(`unknown command "${twoWords}" (run with --help to list the commands)`);
  try {
    const flags = parseFlags(command, args.slice(name.split(" ").length));
    const result = await withDatabaseUrl(async () => {
      // Imported once DATABASE_URL is settled: the app's env is read when its module loads.
      const { getDb } = await import("~/server/db");
      const { actingAs } = await import("~/server/audit/context");
      const db = getDb();
      try {
        // Its changes are the CLI's in the audit log (docs/audit-log.md), named by the command.
        return await actingAs({ kind: "cli", id: process.env.USER || undefined, name: `cli ${name}` }, () => command.run(db, flags));
      } finally {
        await db.$disconnect(); // an open pool would keep the process alive
      }
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } catch (error) {
    throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function parseFlags(command: Command, args: string[]): Record<string, string | undefined> {
  const flags = [...command.required, ...command.optional];
  let values: Record<string, string | undefined>;
  try {
    const options = Object.fromEntries(flags.filter((flag) => flag !== command.positional).map((flag) => [flag, { type: "string" as const }]));
    const parsed = parseArgs({ args, strict: true, allowPositionals: command.positional !== undefined, options });
    values = parsed.values;
    if (command.positional) {
      if (parsed.positionals.length > 1) throw new Error(`Unexpected argument '${parsed.positionals[1]}'. This command takes one ${command.positional}`);
      values[command.positional] = parsed.positionals[0];
    }
  } catch (error) {
    // Node's messages go on with advice for another kind of program: keep the first sentence.
    throw new Error((error as Error).message.split(/\.\s/)[0]);
  }
  const missing = command.required.find((flag) => values[flag] === undefined);
  if (missing) throw new Error(`${missing === command.positional ? `the ${missing}` : `--${missing}`} is required (usage: ${command.usage})`);
  return values;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // One line: a database driver's message can span several.
  process.stderr.write(`${(error as Error).message.split("\n")[0]}\n`);
  process.exitCode = 1;
});
