// The operator CLI run as operators run it: a subprocess on a database of its own. Each run costs
// a tsx start (about a second), so independent runs go in parallel.
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createScratchDatabase } from "../../scripts/lib/scratch-database";
import { runCli, type CliRun } from "../support/cli";
import { PrismaClient } from "~/generated/prisma/client";
import { createAccount } from "~/server/accounts/create-account";
import { applyMigrations } from "~/server/db/migrate";
import { createApiKey } from "~/server/keys/create-api-key";

let databaseUrl: string;
let dropDatabase: () => Promise<void>;
let db: PrismaClient;
let tempDir: string;
/** Unique per run, so the tests also hold on a database shared with other tests. */
const run = randomBytes(4).toString("hex");

// Every CLI call starts a process that compiles TypeScript (tsx): seconds apiece on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

beforeAll(async () => {
  ({ url: databaseUrl, drop: dropDatabase } = await createScratchDatabase(process.env.DATABASE_URL, "blogmgr_cli"));
  await applyMigrations(databaseUrl);
  db = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
  tempDir = await mkdtemp(join(tmpdir(), "blogmgr-cli-"));
}, 60_000);

afterAll(async () => {
  await db?.$disconnect();
  await dropDatabase?.();
  if (tempDir) await rm(tempDir, { recursive: true, force: true });
});

function cli(...args: string[]): Promise<CliRun> {
  return cliOn(databaseUrl, ...args);
}

function cliOn(database: string, ...args: string[]): Promise<CliRun> {
  return runCli(args, { DATABASE_URL: database });
}

async function succeeds(...args: string[]): Promise<Record<string, unknown>> {
  const result = await cli(...args);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** Exit code 1, nothing on stdout, one line on stderr that contains `message`. */
function expectFailure(result: CliRun, message: string): void {
  expect(result).toMatchObject({ code: 1, stdout: "" });
  expect(result.stderr).toMatch(/^[^\n]+\n$/);
  expect(result.stderr).toContain(message);
}

/** An account made in-process, for tests about other commands: one subprocess fewer. */
function seedAccount(name: string) {
  return createAccount(db, { email: email(name), password: "secret-123" });
}

async function createUser(email: string, ...more: string[]) {
  return (await succeeds("user", "create", "--email", email, "--password", "secret-123", ...more)) as {
    id: string;
    email: string;
    handle: string;
    plan: string;
  };
}

function email(name: string): string {
  return `${name}-${run}@example.test`;
}

async function jsonFile(name: string, content: unknown): Promise<string> {
  const file = join(tempDir, name);
  await writeFile(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

describe("usage", () => {
  it("is printed without arguments and with --help", async () => {
    const [bare, help] = await Promise.all([cli(), cli("key", "create", "--help")]);
    for (const result of [bare, help]) {
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("Usage: npm run --silent cli -- <command>");
      expect(result.stdout).toContain("blogs import --email E --file F.json");
    }
  });

  it("refuses an unknown command and an unknown flag", async () => {
    const [command, flag] = await Promise.all([cli("user", "delete"), cli("plan", "set", "--email", "a@b.c", "--plan", "pro", "--force")]);
    expectFailure(command, 'unknown command "user delete"');
    expectFailure(flag, "plan set: Unknown option '--force'");
  });
});

describe("user create", () => {
  it("creates an account better-auth's email+password sign-in accepts, its address verified", async () => {
    const address = email("Ada.Lovelace");
    const created = await createUser(address.toUpperCase(), "--handle", `ada-${run}`, "--name", "Ada", "--plan", "pro");
    expect(created).toEqual({ id: expect.stringMatching(/^[A-Za-z0-9]{32}$/), email: address.toLowerCase(), handle: `ada-${run}`, plan: "pro" });

    const user = await db.user.findUniqueOrThrow({ where: { id: created.id }, include: { accounts: true } });
    expect(user.name).toBe("Ada");
    // The operator vouches for the address: no verification link (docs/security.md, Email verification).
    expect(user.emailVerified).toBe(true);
    expect(user.accounts).toEqual([expect.objectContaining({ providerId: "credential", accountId: created.id })]);

    const auth = betterAuth({
      database: prismaAdapter(db, { provider: "postgresql" }),
      emailAndPassword: { enabled: true },
      secret: "a-test-secret-of-at-least-32-characters",
      baseURL: "http://localhost:3000",
      logger: { disabled: true },
    });
    const signedIn = await auth.api.signInEmail({ body: { email: address, password: "secret-123" } });
    expect(signedIn.user.id).toBe(created.id);
    await expect(auth.api.signInEmail({ body: { email: address, password: "wrong-password" } })).rejects.toThrow();
  });

  it("derives a unique handle from the email, and names the account after it", async () => {
    const first = await createUser(`Grace.Hopper.${run}@one.test`);
    const second = await createUser(`grace.hopper.${run}@two.test`);
    expect(first).toMatchObject({ handle: `grace-hopper-${run}`, plan: "free" });
    expect(second.handle).toBe(`grace-hopper-${run}-2`);
    expect((await db.user.findUniqueOrThrow({ where: { id: second.id } })).name).toBe(second.handle);
  });

  it("refuses bad input and duplicates, creating nothing", async () => {
    const taken = await seedAccount("taken");
    const create = (...args: string[]) => cli("user", "create", ...args);
    const results = await Promise.all([
      create("--email", taken.email, "--password", "secret-123"),
      create("--email", email("other"), "--password", "secret-123", "--handle", taken.handle),
      create("--email", "not-an-email", "--password", "secret-123"),
      create("--email", email("short"), "--password", "1234567"),
      create("--email", email("handle"), "--password", "secret-123", "--handle", "Bad_Handle"),
      create("--email", email("plan"), "--password", "secret-123", "--plan", "gold"),
      create("--email", email("nopassword")),
      create("--email", email("longname"), "--password", "secret-123", "--name", "x".repeat(101)),
      create("--email", email("ctrlname"), "--password", "secret-123", "--name", "Ann\u001bEvil"),
    ]);
    const messages = [
      `user create: an account with email ${taken.email} already exists`,
      `user create: the handle ${taken.handle} is already taken`,
      "user create: email must be a valid email address",
      "user create: password must be 8 to 128 characters",
      "user create: handle must be 3 to 30 characters",
      "user create: plan must be one of free, pro, enterprise",
      "user create: --password is required",
      "user create: name must be 1 to 100 characters, without control characters",
      "user create: name must be 1 to 100 characters, without control characters",
    ];
    results.forEach((result, i) => expectFailure(result, messages[i]!));
    expect(await db.user.count({ where: { email: { in: ["other", "short", "handle", "plan", "nopassword", "longname", "ctrlname"].map(email) } } })).toBe(0);
  });
});

describe("plan set", () => {
  it("changes an account's plan, and refuses an unknown email or plan", async () => {
    const account = await seedAccount("planned");
    const [set, unknown, bad] = await Promise.all([
      cli("plan", "set", "--email", account.email, "--plan", "enterprise"),
      cli("plan", "set", "--email", email("nobody"), "--plan", "pro"),
      cli("plan", "set", "--email", account.email, "--plan", "platinum"),
    ]);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ id: account.id, email: account.email, plan: "enterprise" });
    expectFailure(unknown, `plan set: no account with email ${email("nobody")}`);
    expectFailure(bad, "plan set: plan must be one of free, pro, enterprise");
    expect((await db.organization.findUniqueOrThrow({ where: { id: account.id } })).plan).toBe("enterprise");
  });
});

describe("key create", () => {
  let owner: string;
  beforeAll(async () => {
    owner = (await seedAccount("keys")).email;
  });
  const create = (...args: string[]) => cli("key", "create", "--email", owner, "--name", "CI", ...args);

  it("prints the key once and stores only its SHA-256", async () => {
    const before = Date.now();
    const [thirtyDays, never, past] = await Promise.all([
      create("--permissions", "write:blogs,read:blogs,read:blogs", "--expires", "30d", "--description", "deploys"),
      create("--permissions", "read:analytics"),
      create("--permissions", "read:blogs", "--expires-at", "2020-01-31T12:00:00Z"),
    ]);
    const created = [thirtyDays, never, past].map((result) => {
      expect(result).toMatchObject({ code: 0, stderr: "" });
      return JSON.parse(result.stdout) as { id: string; key: string; permissions: string[]; expiresAt: string | null };
    });
    for (const key of created) {
      expect(Object.keys(key)).toEqual(["id", "key", "permissions", "expiresAt"]);
      expect(key.key).toMatch(/^bm_[a-z0-9]{64}$/);
      const stored = await db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
      expect(stored.keyHash).toBe(createHash("sha256").update(key.key).digest("hex"));
      expect(JSON.stringify(stored)).not.toContain(key.key);
    }
    const [first, second, third] = created;
    expect(first!.permissions).toEqual(["read:blogs", "write:blogs"]);
    const thirtyDaysMs = 30 * 24 * 60 * 60 * 1000;
    expect(Date.parse(first!.expiresAt!) - before).toBeGreaterThanOrEqual(thirtyDaysMs);
    expect(Date.parse(first!.expiresAt!) - Date.now()).toBeLessThanOrEqual(thirtyDaysMs);
    expect(second).toMatchObject({ permissions: ["read:analytics"], expiresAt: null });
    expect(third!.expiresAt).toBe("2020-01-31T12:00:00.000Z");
  });

  it("refuses bad permissions, expiries and missing flags", async () => {
    const results = await Promise.all([
      create("--permissions", "read:blogs,admin"),
      create("--permissions", ","),
      create("--permissions", "read:blogs", "--expires", "2y"),
      create("--permissions", "read:blogs", "--expires", "30d", "--expires-at", "2030-01-01T00:00:00Z"),
      create("--permissions", "read:blogs", "--expires-at", "2030-02-30T00:00:00Z"),
      cli("key", "create", "--email", email("nobody"), "--name", "CI", "--permissions", "read:blogs"),
      cli("key", "create", "--email", owner, "--permissions", "read:blogs"),
    ]);
    const messages = [
      'key create: unknown permission "admin": permissions are read:blogs, write:blogs, delete:blogs, read:analytics',
      "key create: at least one permission is required",
      "key create: expires must be one of never, 30d, 90d, 1y",
      "key create: give either expires or expiresAt, not both",
      "key create: expiresAt must be an ISO 8601 timestamp",
      `key create: no account with email ${email("nobody")}`,
      "key create: --name is required",
    ];
    results.forEach((result, i) => expectFailure(result, messages[i]!));
  });
});

describe("key deactivate", () => {
  it("deactivates once for good, and refuses an unknown id", async () => {
    const owner = await seedAccount("deactivate");
    const { id } = await createApiKey(db, { accountId: owner.id, name: "old", permissions: ["read:blogs"] });
    expect(await succeeds("key", "deactivate", "--id", id)).toEqual({ id, status: "deactivated" });
    const { deactivatedAt } = await db.apiKey.findUniqueOrThrow({ where: { id } });
    expect(deactivatedAt).toBeInstanceOf(Date);

    const [again, unknown] = await Promise.all([cli("key", "deactivate", "--id", id), cli("key", "deactivate", "--id", "nope")]);
    expect(JSON.parse(again.stdout)).toEqual({ id, status: "deactivated" });
    expect((await db.apiKey.findUniqueOrThrow({ where: { id } })).deactivatedAt).toEqual(deactivatedAt);
    expectFailure(unknown, "key deactivate: no API key with id nope");
  });
});

describe("key roll", () => {
  /** Against the database of the server under test (npm test), so the keys are then used over HTTP. */
  const serverDb = () => process.env.DATABASE_URL!;
  const listBlogs = (key: string) => fetch(new URL("/api/v1/blogs", process.env.API_BASE_URL), { headers: { "x-api-key": key } });

  async function rolledKeyPair(grace: string) {
    const { getDb } = await import("~/server/db");
    const owner = await createAccount(getDb(), { email: email(`roll-${grace}`), password: "secret-123" });
    const old = await createApiKey(getDb(), { accountId: owner.id, name: "deploy", permissions: ["read:blogs"] });
    const result = await cliOn(serverDb(), "key", "roll", "--id", old.id, "--grace", grace);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const rolled = JSON.parse(result.stdout) as { id: string; key: string; rolledKeyId: string; graceEndsAt: string };
    expect(rolled).toMatchObject({ rolledKeyId: old.id, key: expect.stringMatching(/^bm_[a-z0-9]{64}$/) });
    return { db: getDb(), old, rolled };
  }

  it("prints the new key; both work over HTTP during the grace, and the old one fails after it", async () => {
    const { db: server, old, rolled } = await rolledKeyPair("1h");
    expect(Date.parse(rolled.graceEndsAt) - Date.now()).toBeGreaterThan(59 * 60_000);
    expect((await listBlogs(old.key)).status).toBe(200);
    expect((await listBlogs(rolled.key)).status).toBe(200);
    // The grace's end, moved to the past: the lookup compares it with the time of each request.
    await server.apiKey.update({ where: { id: old.id }, data: { graceEndsAt: new Date(Date.now() - 1000) } });
    const refused = await listBlogs(old.key);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: "INVALID_API_KEY", message: expect.stringContaining("rolled") } });
    expect((await listBlogs(rolled.key)).status).toBe(200);
  });

  it("with --grace 0, the old key fails at once; a rolled key cannot be rolled again; a bad grace is refused", async () => {
    const { old, rolled } = await rolledKeyPair("0");
    expect((await listBlogs(old.key)).status).toBe(401);
    expect((await listBlogs(rolled.key)).status).toBe(200);
    const [again, bad, unknown] = await Promise.all([
      cliOn(serverDb(), "key", "roll", "--id", old.id),
      cliOn(serverDb(), "key", "roll", "--id", rolled.id, "--grace", "2d"),
      cli("key", "roll", "--id", "nope"),
    ]);
    expectFailure(again, `key roll: API key ${old.id} cannot be rolled: it has already been rolled`);
    expectFailure(bad, "key roll: grace must be one of 0, 1h, 24h, 7d");
    expectFailure(unknown, "key roll: no API key with id nope");
  });
});

describe("blogs import", () => {
  let owner: { id: string; email: string };
  beforeAll(async () => {
    owner = await seedAccount("importer");
    await db.blog.create({ data: { userId: owner.id, title: "Existing", blogSlug: "hello-world" } });
  });
  const slugsOf = async (userId: string) =>
    (await db.blog.findMany({ where: { userId }, orderBy: { blogSlug: "asc" }, select: { blogSlug: true } })).map((b) => b.blogSlug);

  it("keeps the history given and derives the missing slugs around the taken ones", async () => {
    const file = await jsonFile("good.json", [
      {
        title: "  Hello, World!  ",
        description: "first",
        isPublic: true,
        allowApiAccess: true,
        createdAt: "2021-03-04T05:06:07.089Z",
        updatedAt: "2022-01-01T00:00:00+02:00",
        id: "ignored",
      },
      { title: "Hello World" },
      { title: "Named", blogSlug: "hello-world-3" },
      { title: "Ünïcode café", seoTitle: "SEO", seoDescription: "about", content: "# Body" },
    ]);
    const before = Date.now();
    expect(await succeeds("blogs", "import", "--email", owner.email, "--file", file)).toEqual({ imported: 4 });

    const blogs = await db.blog.findMany({ where: { userId: owner.id, title: { not: "Existing" } } });
    const byTitle = Object.fromEntries(blogs.map((blog) => [blog.title, blog]));
    expect(Object.fromEntries(blogs.map((blog) => [blog.title, blog.blogSlug]))).toEqual({
      "Hello, World!": "hello-world-2", // "hello-world" is an existing blog's
      "Hello World": "hello-world-4", // "-2" an earlier entry's, "-3" a later entry's explicit slug
      Named: "hello-world-3",
      "Ünïcode café": "unicode-cafe",
    });
    expect(byTitle["Hello, World!"]).toMatchObject({
      description: "first",
      isPublic: true,
      allowApiAccess: true,
      createdAt: new Date("2021-03-04T05:06:07.089Z"),
      updatedAt: new Date("2021-12-31T22:00:00Z"),
      content: "",
      seoTitle: "",
      seoDescription: "",
    });
    const defaults = byTitle["Hello World"]!;
    expect(defaults).toMatchObject({ isPublic: false, allowApiAccess: false, description: "" });
    expect(defaults.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(defaults.updatedAt).toEqual(defaults.createdAt);
    expect(byTitle["Ünïcode café"]).toMatchObject({ seoTitle: "SEO", seoDescription: "about", content: "# Body" });
  });

  it("imports nothing from a file with a bad entry, and names it", async () => {
    const before = await slugsOf(owner.id);
    const good = { title: "Fine" };
    const files = await Promise.all([
      jsonFile("long-title.json", [good, good, { title: "x".repeat(201) }]),
      jsonFile("no-title.json", [good, { description: "untitled" }]),
      jsonFile("bad-flag.json", [good, { title: "B", allowApiAccess: "yes" }]),
      jsonFile("bad-date.json", [{ title: "C", createdAt: "yesterday" }]),
      jsonFile("taken-slug.json", [good, { title: "D", blogSlug: "hello-world" }]),
      jsonFile("twice.json", [{ title: "E", blogSlug: "same" }, good, { title: "F", blogSlug: "same" }]),
      jsonFile("object.json", { title: "not in an array" }),
      jsonFile("invalid.json", "[{"),
      jsonFile("nul.json", [good, { title: "G", content: "a\u0000b" }]),
      jsonFile("surrogate.json", [{ title: "H\ud800" }]),
    ]);
    const results = await Promise.all([
      ...files.map((file) => cli("blogs", "import", "--email", owner.email, "--file", file)),
      cli("blogs", "import", "--email", owner.email, "--file", join(tempDir, "missing.json")),
      cli("blogs", "import", "--email", email("nobody"), "--file", files[0]!),
    ]);
    const messages = [
      "blogs import: entry 2: title must be 1 to 200 characters",
      "blogs import: entry 1: title is required",
      "blogs import: entry 1: allowApiAccess must be a boolean",
      "blogs import: entry 0: createdAt must be an ISO 8601 timestamp",
      "blogs import: entry 1: blogSlug hello-world is already used by a blog of this account",
      "blogs import: entry 2: blogSlug same is also the slug of entry 0",
      "blogs import: the import must be a JSON array of blogs",
      `blogs import: ${files[7]} is not valid JSON`,
      "blogs import: entry 1: content must not contain NUL characters",
      "blogs import: entry 0: title must be valid Unicode text",
      `blogs import: cannot read ${join(tempDir, "missing.json")}: ENOENT`,
      `blogs import: no account with email ${email("nobody")}`,
    ];
    results.forEach((result, i) => expectFailure(result, messages[i]!));
    expect(await slugsOf(owner.id)).toEqual(before);
  });

  it("imports 10,000 blogs in one go", { timeout: 120_000 }, async () => {
    const account = await seedAccount("bulk");
    const blogs = Array.from({ length: 10_000 }, (_, i) => ({
      title: i % 2 ? `Post ${i}` : "Weekly notes",
      content: "Lorem ipsum ".repeat(100),
      createdAt: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString(),
    }));
    const file = await jsonFile("bulk.json", blogs);
    const started = Date.now();
    expect(await succeeds("blogs", "import", "--email", account.email, "--file", file)).toEqual({ imported: 10_000 });
    console.log(`[cli] imported 10,000 blogs in ${Date.now() - started} ms (process start included)`);
    expect(await db.blog.count({ where: { userId: account.id } })).toBe(10_000);
    expect(await db.blog.count({ where: { userId: account.id, blogSlug: { startsWith: "weekly-notes" } } })).toBe(5_000);
  });
});

describe("domain verify", () => {
  it("marks the owner's publication's domain verified, and refuses another domain", async () => {
    const account = await seedAccount("domain-owner");
    const domain = `blog-${run}.example.test`;
    await db.publication.create({ data: { userId: account.id, domain, domainToken: "blogmgr-verify=test" } });

    const [other, verified] = [
      await cli("domain", "verify", "--email", email("domain-owner"), "--domain", `other-${run}.example.test`),
      await succeeds("domain", "verify", "--email", email("domain-owner"), "--domain", domain.toUpperCase()),
    ];
    expectFailure(other, `domain verify: Domain mismatch: the publication's domain is ${domain}`);
    expect(verified).toEqual({ domain, verifiedAt: expect.any(String) });
    const row = await db.publication.findUniqueOrThrow({ where: { userId: account.id } });
    expect(row.domainVerifiedAt?.toISOString()).toBe(verified.verifiedAt);
  });
});

describe("subscribers", () => {
  it("adds, imports a CSV export with its report, lists and exports an account's subscribers", async () => {
    const owner = await seedAccount("newsletter");
    const added = await succeeds("subscribers", "add", "--email", owner.email, "--address", " Ann@Example.com ", "--name", "Ann");
    expect(added).toMatchObject({ created: true, subscriber: { email: "ann@example.com", name: "Ann", status: "active", source: "import" } });
    const ghost = await jsonFile(
      "members.csv",
      [
        "id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers",
        "1,ann@example.com,Ann,,true,false,,2024-01-01T00:00:00.000Z,,,",
        "2,bob@example.com,Bob,,false,false,,2024-01-01T00:00:00.000Z,,,",
        "3,broken,,,true,false,,,,,",
      ].join("\n"),
    );
    const [report, badAddress, notCsv] = await Promise.all([
      succeeds("subscribers", "import", "--email", owner.email, "--file", ghost),
      cli("subscribers", "add", "--email", owner.email, "--address", "nobody"),
      jsonFile("notes.csv", "title,body\nHi,there\n").then((file) => cli("subscribers", "import", "--email", owner.email, "--file", file)),
    ]);
    expect(report).toEqual({ layout: "ghost", added: 0, addedUnsubscribed: 1, alreadyThere: 1, skipped: [{ line: 4, email: "broken", reason: "invalid address" }] });
    expectFailure(badAddress, "--address is not a valid email address");
    expectFailure(notCsv, "No email column");

    const listed = await succeeds("subscribers", "list", "--email", owner.email, "--status", "unsubscribed");
    expect((listed.subscribers as { email: string }[]).map((s) => s.email)).toEqual(["bob@example.com"]);
    expect(listed.pagination).toMatchObject({ total: 1, page: 1 });

    const file = join(tempDir, "export.csv");
    expect(await succeeds("subscribers", "export", "--email", owner.email, "--file", file)).toEqual({ file, subscribers: 2 });
    const lines = (await readFile(file, "utf8")).trim().split("\n");
    expect(lines[0]).toBe("email,name,status,source,created_at,confirmed_at,unsubscribed_at");
    expect(lines.slice(1).map((line) => line.split(",").slice(0, 4).join(",")).sort()).toEqual(["ann@example.com,Ann,active,import", "bob@example.com,Bob,unsubscribed,import"]);
  });
});
