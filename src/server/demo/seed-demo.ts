import "server-only";
import { join } from "node:path";
import { DAY_MS } from "~/shared/calendar-date";
import { createAccount } from "~/server/accounts/create-account";
import { importBlogs } from "~/server/blogs/import-blogs";
import { getDb } from "~/server/db";
import { createApiKey } from "~/server/keys/create-api-key";
import { PERMISSIONS } from "~/shared/permissions";
import { readSecretFile, writeSecretFile } from "~/server/runtime/secret-file";

export interface DemoAccount {
  email: string;
  password: string;
  /** Development only: a key with every permission. */
  apiKey?: string;
}

export const DEMO = { email: "demo@example.com", password: "demo-password", handle: "demo", name: "Demo Owner" };

const DEMO_BLOGS = [
  {
    title: "Welcome to Blog Manager",
    description: "What this demo account holds and how to reach it over the API.",
    content: "# Welcome\n\nThis blog is **public** and has API access, so `GET /api/v1/blogs` lists it.",
    isPublic: true,
    allowApiAccess: true,
    seoTitle: "Welcome | Blog Manager demo",
    seoDescription: "A tour of the Blog Manager demo account.",
  },
  {
    title: "Release notes",
    description: "A public blog with API access.",
    content: "## 1.0\n\n- Blogs over REST\n- API keys with permissions",
    isPublic: true,
    allowApiAccess: true,
  },
  {
    title: "Drafts in progress",
    description: "Not public, but the API can read it.",
    content: "Work in progress.",
    isPublic: false,
    allowApiAccess: true,
  },
  {
    title: "Internal notes",
    description: "Neither public nor reachable over the API: the API never lists it.",
    content: "Private.",
    isPublic: false,
    allowApiAccess: false,
  },
  {
    title: "Public, dashboard only",
    description: "Public on the web, but API access is off.",
    content: "Read me in the browser.",
    isPublic: true,
    allowApiAccess: false,
  },
];

/**
 * The demo account (`npm run dev`, or `npm start --demo`), created on first run: a handful of
 * blogs (some public, some not, some without API access) and, with `issueKey` (development only),
 * a key with every permission. Only the key's hash is in the database, so the key itself is kept
 * in DATA_DIR/demo.json (owner-only) to be shown on every start. A production server never
 * makes, prints or stores one: the owner creates keys in the dashboard (docs/security.md).
 */
export async function ensureDemoAccount(dataDir: string, { issueKey }: { issueKey: boolean }): Promise<DemoAccount> {
  const db = getDb();
  const login = { email: DEMO.email, password: DEMO.password };
  const existing = await db.user.findUnique({ where: { email: DEMO.email }, select: { id: true } });
  const accountId = existing?.id ?? (await createDemoAccount()).id;
  if (!issueKey) return login;

  const file = join(dataDir, "demo.json");
  const saved = await readSecretFile(file).then((text) => (text ? (JSON.parse(text) as DemoAccount) : undefined));
  if (existing && saved?.apiKey) return saved;
  const { key } = await createApiKey(db, {
    accountId,
    name: "Demo key",
    description: "Created on first run with every permission",
    permissions: [...PERMISSIONS],
  });
  const demo = { ...login, apiKey: key };
  await writeSecretFile(file, JSON.stringify(demo, null, 2));
  return demo;
}

/** Whether the demo account (its password is published) is in the database. */
export async function demoAccountExists(): Promise<boolean> {
  return (await getDb().user.count({ where: { email: DEMO.email } })) > 0;
}

async function createDemoAccount(): Promise<{ id: string }> {
  const db = getDb();
  const account = await createAccount(db, { ...DEMO, plan: "pro" });
  await importBlogs(db, {
    accountId: account.id,
    blogs: DEMO_BLOGS.map((blog, i) => ({ ...blog, createdAt: new Date(Date.now() - (DEMO_BLOGS.length - i) * DAY_MS).toISOString() })),
  });
  return account;
}
