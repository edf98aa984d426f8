import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../../scripts/lib/cluster";
import { createTestAccount, db, seedBlogs } from "../support/api";
import { emailsTo } from "../support/mailbox";
import { publishWithNewsletter, seedSubscribers, until } from "../newsletters/support";
import { clusterOptions } from "./cluster-support";

/**
 * A post's newsletter sent by the job workers of three instances (and the suite's server's) at
 * once (docs/newsletters.md, Sending): their batches claim different subscribers, and each
 * subscriber gets the post exactly once.
 */
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster(clusterOptions("newsletters"));
});
afterAll(() => cluster?.stop());

describe("a newsletter across instances", () => {
  it("reaches each subscriber exactly once", async () => {
    const subscribers = 600;
    const account = await createTestAccount();
    const [blogId] = await seedBlogs(account.id, [{ title: "To everyone, once", content: "Hello." }]);
    const addresses = await seedSubscribers(db(), account.id, Array.from({ length: subscribers }, () => "active" as const), "c");
    await publishWithNewsletter(db(), blogId!);
    await until(async () => (await db().newsletter.findUniqueOrThrow({ where: { blogId: blogId! } })).status === "sent", 150_000, "the newsletter is sent");

    const received = await Promise.all(addresses.map(async (address) => (await emailsTo(address)).length));
    expect(received.filter((count) => count !== 1)).toEqual([]);
    expect(await db().newsletter.findUniqueOrThrow({ where: { blogId: blogId! } })).toMatchObject({ total: subscribers, sent: subscribers, failed: 0 });
    expect(await db().newsletterDelivery.count({ where: { blogId: blogId!, status: "sent" } })).toBe(subscribers);
  });
});
