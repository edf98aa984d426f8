// Which changes forget an account's kept public answers (docs/public-blog.md, The cache): the
// operations declaring that they change public pages do, at once; the others (keys, webhooks,
// preview links) leave them served from the cache (X-Cache: HIT), as nothing the site shows changed.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestAccount, getPath, seedBlogs, type TestAccount } from "../support/api";
import { signIn, trpc } from "../support/dashboard";

let account: TestAccount;
let cookie: string;
let blogId: string;
let path: string;

beforeAll(async () => {
  account = await createTestAccount();
  [blogId] = (await seedBlogs(account.id, [{ blogSlug: "kept", isPublic: true, title: "Kept" }])) as [string];
  path = `/${account.handle}/kept`;
  cookie = await signIn(account);
});

/** The page, kept and trusted: the change listener proves itself within seconds of the server's start. */
async function pageIsKept(): Promise<void> {
  await expect.poll(async () => (await getPath(path)).headers.get("x-cache"), { timeout: 15_000, interval: 200 }).toBe("HIT");
}

describe("a change through the dashboard", () => {
  it.each([
    ["keys.create", () => ({ name: "kept pages", permissions: ["read:blogs"] })],
    ["webhooks.create", () => ({ url: "http://127.0.0.1:9/hook", eventTypes: ["blog.created"] })],
    ["blogs.previews.create", () => ({ blogId })],
  ])("%s leaves the public pages kept", async (procedure, input) => {
    await pageIsKept();
    const answer = await trpc(cookie, procedure, input());
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await getPath(path)).headers.get("x-cache")).toBe("HIT");
  });

  it("to a blog makes its account's pages again at the next request", async () => {
    await pageIsKept();
    const answer = await trpc(cookie, "blogs.patch", { blogId, title: "Kept, changed" });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const page = await getPath(path);
    expect(page.headers.get("x-cache")).toBe("MISS");
    expect(await page.text()).toContain("Kept, changed");
  });
});
