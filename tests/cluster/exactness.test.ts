import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUOTAS } from "~/server/quotas/quotas";
import { DASHBOARD_MUTATIONS_PER_HOUR } from "~/server/ratelimit/account-rate";
import { PLAN_HOURLY_LIMITS } from "~/shared/plans";
import { SIGN_IN_BACKOFF } from "~/server/auth";
import { startCluster, type Cluster } from "../../scripts/lib/cluster";
import { call, createTestAccount, createTestKey, db, seedBlogs, type TestAccount } from "../support/api";
import { authPost, signIn, trpc } from "../support/dashboard";
import { addTestMember } from "../support/members";
import { awayFromTheHourEnd, clusterOptions, statusCounts } from "./cluster-support";

/**
 * What must hold across instances (docs/deploying.md): three production servers behind HAProxy,
 * on PgBouncer in transaction mode and one Redis (scripts/lib/cluster.ts). Concurrent requests go
 * through the balancer, round robin, so each instance takes a third of them.
 */
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster(clusterOptions("exactness"));
});
afterAll(() => cluster?.stop());

const viaBalancer = (path: string, options: Parameters<typeof call>[1] = {}) => call(path, { ...options, baseUrl: cluster.balancerUrl });

async function keyIdOf(account: TestAccount): Promise<string> {
  return (await db().apiKey.findFirstOrThrow({ where: { userId: account.id }, select: { id: true } })).id;
}

describe("rate limits across instances", () => {
  it("let exactly the plan's budget through when 200 requests race over three instances", async () => {
    await awayFromTheHourEnd();
    const account = await createTestAccount("free");
    const budget = PLAN_HOURLY_LIMITS.free;
    const answers = await Promise.all(Array.from({ length: 2 * budget }, () => viaBalancer("/blogs", { key: account.key })));
    expect(statusCounts(answers)).toEqual({ 200: budget, 429: budget });
  });

  it("share the dashboard's hourly limit of changes: exactly its number of racing renames pass", async () => {
    await awayFromTheHourEnd();
    const account = await createTestAccount();
    const cookie = await signIn(account, cluster.balancerUrl);
    const id = await keyIdOf(account);
    const extra = 30;
    const answers = await Promise.all(
      Array.from({ length: DASHBOARD_MUTATIONS_PER_HOUR + extra }, (_, i) => trpc(cookie, "keys.update", { id, name: `Renamed ${i}` }, { baseUrl: cluster.balancerUrl })),
    );
    expect(statusCounts(answers)).toEqual({ 200: DASHBOARD_MUTATIONS_PER_HOUR, 429: extra });
  });
});

describe("keys across instances", () => {
  it("refuse a deactivated key on the very next request to every instance", async () => {
    const account = await createTestAccount();
    for (const baseUrl of cluster.instanceUrls) expect((await call("/blogs", { key: account.key, baseUrl })).status).toBe(200);
    const cookie = await signIn(account, cluster.balancerUrl);
    expect((await trpc(cookie, "keys.deactivate", { id: await keyIdOf(account) }, { baseUrl: cluster.balancerUrl })).status).toBe(200);
    for (const baseUrl of cluster.instanceUrls) expect((await call("/blogs", { key: account.key, baseUrl })).status).toBe(401);
  });

  it("refuse a key rolled with no grace on every instance, and take its replacement", async () => {
    const account = await createTestAccount();
    for (const baseUrl of cluster.instanceUrls) expect((await call("/blogs", { key: account.key, baseUrl })).status).toBe(200);
    const cookie = await signIn(account, cluster.balancerUrl);
    const rolled = await trpc(cookie, "keys.roll", { id: await keyIdOf(account), grace: "0" }, { baseUrl: cluster.balancerUrl });
    expect(rolled.status).toBe(200);
    const replacement: string = rolled.body.result.data.key;
    for (const baseUrl of cluster.instanceUrls) {
      expect((await call("/blogs", { key: account.key, baseUrl })).status).toBe(401);
      expect((await call("/blogs", { key: replacement, baseUrl })).status).toBe(200);
    }
  });
});

describe("quotas across instances", () => {
  it("let exactly the free places of the blog quota through when 60 creates race", async () => {
    const account = await createTestAccount("free");
    const quota = QUOTAS.blogsPerAccount.free;
    const free = 10;
    await seedBlogs(account.id, Array.from({ length: quota - free }, () => ({})));
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        viaBalancer("/blogs", { key: account.key, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: `Race ${i}` }) }),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 201: free, 409: 60 - free });
    expect(answers.find((answer) => answer.status === 409)?.json.error?.message).toBe("Blog quota reached");
    expect(await db().blog.count({ where: { userId: account.id } })).toBe(quota);
  });

  it("let exactly the free places of the active-key quota through when 20 dashboard creates race", async () => {
    const account = await createTestAccount();
    const free = 5;
    for (let i = 1; i < QUOTAS.activeKeysPerAccount - free; i++) await createTestKey(account.id);
    const cookie = await signIn(account, cluster.balancerUrl);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => trpc(cookie, "keys.create", { name: `Racing ${i}`, permissions: ["read:blogs"] }, { baseUrl: cluster.balancerUrl })),
    );
    expect(statusCounts(answers)).toEqual({ 200: free, 409: 20 - free });
    expect(await db().apiKey.count({ where: { userId: account.id, deactivatedAt: null } })).toBe(QUOTAS.activeKeysPerAccount);
  });
});

describe("idempotent creates across instances", () => {
  it("create one blog when 30 requests with the same Idempotency-Key race over three instances", async () => {
    const account = await createTestAccount();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        viaBalancer("/blogs", {
          key: account.key,
          method: "POST",
          headers: { "content-type": "application/json", "idempotency-key": "cluster-race-1" },
          body: JSON.stringify({ title: "Once" }),
        }),
      ),
    );
    const created = answers.filter((answer) => answer.status === 201);
    // Each answer is the first one's (201, replayed or not) or, while it runs, a 409 asking to retry.
    expect(created.length + answers.filter((answer) => answer.json.error?.details?.includes("still being processed")).length).toBe(30);
    expect(new Set(created.map((answer) => answer.json.data.blog.id)).size).toBe(1);
    expect(created.filter((answer) => answer.headers.get("idempotent-replayed") !== "true")).toHaveLength(1);
    expect(await db().blog.count({ where: { userId: account.id } })).toBe(1);
  });
});

describe("the sign-in backoff across instances", () => {
  it("holds back the right password once the free wrong attempts were spread over the instances", async () => {
    const account = await createTestAccount();
    for (let i = 0; i < SIGN_IN_BACKOFF.freeAttempts; i++) {
      const wrong = await authPost("/sign-in/email", { email: account.email, password: "not-the-password" }, undefined, cluster.balancerUrl);
      expect(wrong.status).toBe(401);
    }
    const right = await authPost("/sign-in/email", { email: account.email, password: "password-123" }, undefined, cluster.balancerUrl);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("membership across instances", () => {
  // Every instance reads the membership at every request (src/server/auth/session-user.ts): no
  // instance keeps a member's role or publication in memory (docs/teams.md).
  it("refuse a removed member on every instance at once, and a demoted one what their new role may not do", async () => {
    const publication = await createTestAccount();
    const [blogId] = (await seedBlogs(publication.id, [{ title: "The team's draft" }])) as [string];
    const member = await addTestMember(publication.id, "editor");
    const cookie = await signIn(member, cluster.balancerUrl);
    const onEvery = (path: string, input: unknown) => Promise.all(cluster.instanceUrls.map((baseUrl) => trpc(cookie, path, input, { baseUrl })));
    const statuses = (answers: { status: number }[]) => answers.map((answer) => answer.status);

    expect(statuses(await onEvery("blogs.get", { blogId }))).toEqual([200, 200, 200]);
    expect(statuses(await onEvery("subscribers.list", {}))).toEqual([200, 200, 200]);

    // An editor made a contributor: subscribers are refused everywhere, the posts still read.
    await db().member.update({ where: { id: member.memberId }, data: { role: "contributor" } });
    const demoted = await onEvery("subscribers.list", {});
    expect(demoted.map((answer) => [answer.status, answer.body.error?.data?.apiCode])).toEqual(Array(3).fill([403, "INSUFFICIENT_PERMISSIONS"]));
    expect(statuses(await onEvery("blogs.get", { blogId }))).toEqual([200, 200, 200]);

    // Removed (the member row gone, as removing them leaves it): nothing of the publication on any instance.
    await db().member.delete({ where: { id: member.memberId } });
    for (const answer of await onEvery("blogs.get", { blogId })) {
      expect(answer.status).not.toBe(200);
      expect(JSON.stringify(answer.body)).not.toContain("The team's draft");
    }
  });
});
