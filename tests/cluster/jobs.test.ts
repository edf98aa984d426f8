import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookEndpoint } from "~/server/webhooks/endpoints";
import { startCluster, type Cluster } from "../../scripts/lib/cluster";
import { call, createTestAccount, db, type TestAccount } from "../support/api";
import { eventually, startReceiver, verifiedEvents, type Receiver } from "../webhooks/receiver";
import { clusterOptions, countBy } from "./cluster-support";

/**
 * Background jobs with a job worker in each of three instances (and the suite's server's): every
 * webhook attempt is sent once, an endpoint's concurrency holds across the workers, and a scheduled
 * blog is published once with one blog.published (docs/deploying.md).
 */
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster(clusterOptions("jobs"));
});
afterAll(() => cluster?.stop());

async function createBlogs(account: TestAccount, blogs: object[]): Promise<string[]> {
  const answers = await Promise.all(
    blogs.map((blog) =>
      call("/blogs", { key: account.key, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(blog), baseUrl: cluster.balancerUrl }),
    ),
  );
  expect(answers.map((answer) => answer.status)).toEqual(blogs.map(() => 201));
  return answers.map((answer) => answer.json.data.blog.id as string);
}

/** How many requests the receiver got for each event (webhook-id). */
const requestsPerEvent = (receiver: Receiver) => countBy(receiver.received, ({ headers }) => headers["webhook-id"] as string);

describe("webhook deliveries across instances", () => {
  it("send each attempt once, at most the endpoint's concurrency at a time", async () => {
    const events = 24;
    // The first 24 requests fail (500), then every one succeeds; each answer takes 300 ms.
    const [account, receiver] = await Promise.all([createTestAccount(), startReceiver(Array.from({ length: events }, () => 500), 300)]);
    try {
      const { secret } = await createWebhookEndpoint(db(), { accountId: account.id, url: receiver.url, eventTypes: ["blog.created"] });
      await createBlogs(account, Array.from({ length: events }, (_, i) => ({ title: `Event ${i}` })));
      await eventually(async () => {
        expect(await db().webhookDelivery.count({ where: { endpoint: { userId: account.id }, status: "succeeded" } })).toBe(events);
      }, 60_000);
      // 24 failed attempts and 24 successes, each sent once: what each delivery recorded is what arrived.
      expect(verifiedEvents(receiver, secret)).toHaveLength(2 * events);
      const deliveries = await db().webhookDelivery.findMany({ where: { endpoint: { userId: account.id } }, select: { eventId: true, attempts: true } });
      expect(requestsPerEvent(receiver)).toEqual(Object.fromEntries(deliveries.map(({ eventId, attempts }) => [eventId, attempts])));
      const attempts = await db().webhookAttempt.findMany({ where: { delivery: { endpoint: { userId: account.id } } }, select: { deliveryId: true, attempt: true } });
      expect(attempts).toHaveLength(2 * events);
      expect(new Set(attempts.map(({ deliveryId, attempt }) => `${deliveryId}:${attempt}`)).size).toBe(2 * events);
      expect(receiver.maxInFlight).toBeGreaterThan(1);
      expect(receiver.maxInFlight).toBeLessThanOrEqual(4);
    } finally {
      await receiver.close();
    }
  });
});

describe("scheduled publishing across instances", () => {
  it("publishes each scheduled blog once, with one blog.published", async () => {
    const [account, receiver] = await Promise.all([createTestAccount(), startReceiver()]);
    try {
      const { secret } = await createWebhookEndpoint(db(), { accountId: account.id, url: receiver.url, eventTypes: ["blog.published"] });
      const publishAt = new Date(Date.now() + 4_000).toISOString();
      const ids = await createBlogs(account, Array.from({ length: 6 }, (_, i) => ({ title: `Scheduled ${i}`, isPublic: false, publishAt })));
      await eventually(async () => {
        expect(await db().blog.count({ where: { id: { in: ids }, isPublic: true } })).toBe(ids.length);
        expect(receiver.received).toHaveLength(ids.length);
      }, 30_000);
      // Time for a second publication or event, were one to come.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const published = verifiedEvents(receiver, secret);
      expect(published.map((event) => event.type)).toEqual(ids.map(() => "blog.published"));
      expect(published.map((event) => event.data.id).sort()).toEqual([...ids].sort());
    } finally {
      await receiver.close();
    }
  });
});
