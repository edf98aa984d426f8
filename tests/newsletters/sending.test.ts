import { makeWorkerUtils, type JobHelpers } from "graphile-worker";
import { describe, expect, it, vi } from "vitest";
import { JOB_NAMES } from "~/server/jobs/definition";
import { sendNewsletterBatch } from "~/server/newsletters/send";
import { sendNewsletterTest } from "~/server/newsletters/test-email";
import { createWebhookEndpoint } from "~/server/webhooks/endpoints";
import { acceptMailTo, emailsTo, refuseMailTo, refuseMailToForGood, refusedAttempts, waitForEmails } from "../support/mailbox";
import { createTestAccount, db, seedBlogs, seedImage } from "../support/api";
import { eventually, startReceiver, verifiedEvents } from "../webhooks/receiver";
import { publishWithNewsletter, seedSubscribers, until } from "./support";

/**
 * Sending a post to its subscribers (docs/newsletters.md, Sending) through the suite's server and
 * its job worker, into the suite's mailbox (scripts/lib/mailbox.ts): one email per active
 * subscriber and none to the others, its headers and parts, a permanent refusal bouncing its
 * subscriber, one for now retried until accepted, and the newsletter.sent event at the end.
 */
vi.setConfig({ testTimeout: 90_000 });

const newsletterOf = (blogId: string) => db().newsletter.findUniqueOrThrow({ where: { blogId } });
const sentNewsletter = async (blogId: string) => (await db().newsletter.findUnique({ where: { blogId } }))?.status === "sent";

describe("a post's newsletter", () => {
  it("goes once to each active subscriber, with its headers, HTML and plain-text parts", async () => {
    const [account, receiver] = await Promise.all([createTestAccount(), startReceiver()]);
    const { secret } = await createWebhookEndpoint(db(), { accountId: account.id, url: receiver.url, eventTypes: ["newsletter.sent"] });
    await db().publication.create({ data: { userId: account.id, title: "Ada's Notes", accentColor: "#b42318" } });
    const figure = await seedImage(account.id, { width: 1600, height: 900 });
    const cover = await seedImage(account.id, { width: 2000, height: 1000 });
    const [blogId] = await seedBlogs(account.id, [
      {
        title: "Engines of thought",
        description: "On the analytical engine",
        content: `Read [the previous note](earlier-note) first.\n\n![A figure](/images/${figure}/1600x900.jpeg)\n\n\`\`\`\nconst x = 1;\n\`\`\``,
      },
    ]);
    await db().blog.update({ where: { id: blogId! }, data: { coverImageId: cover } });
    const active = await seedSubscribers(db(), account.id, ["active", "active", "active"], "active");
    const others = await seedSubscribers(db(), account.id, ["pending", "unsubscribed", "bounced"], "other");
    await publishWithNewsletter(db(), blogId!);

    await until(() => sentNewsletter(blogId!), 60_000, "the newsletter is sent");
    const newsletter = await newsletterOf(blogId!);
    expect(newsletter).toMatchObject({ total: 3, sent: 3, failed: 0 });
    expect(newsletter.finishedAt).not.toBeNull();
    for (const address of others) expect(await emailsTo(address)).toEqual([]);

    const subscribers = await db().subscriber.findMany({ where: { email: { in: active } }, select: { email: true, unsubscribeToken: true } });
    const { handle } = account;
    const { blogSlug } = await db().blog.findUniqueOrThrow({ where: { id: blogId! } });
    for (const { email, unsubscribeToken } of subscribers) {
      const messages = await emailsTo(email);
      expect(messages).toHaveLength(1);
      const [message] = messages;
      expect(message!.subject).toBe("Engines of thought");
      expect(message!.fromHeader).toMatch(/^"?Ada's Notes"? <no-reply@example\.test>$/);
      const unsubscribe = new URL(message!.headers["list-unsubscribe"]!.replace(/^<|>$/g, ""));
      expect(unsubscribe.pathname).toBe(`/${handle}/unsubscribe`);
      expect(unsubscribe.searchParams.get("token")).toBe(unsubscribeToken);
      expect(message!.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
      // The HTML part: every image by an absolute URL (our images one variant file), links absolute, styles inline.
      const images = [...message!.html.matchAll(/<img[^>]*src="([^"]+)"/g)].map((match) => match[1]!);
      expect(images.map((src) => new URL(src).pathname)).toEqual([`/images/${cover}/1328w.jpeg`, `/images/${figure}/1328w.jpeg`]);
      expect(message!.html).toContain(`/${handle}/earlier-note"`);
      expect(message!.html).toMatch(/<pre style="[^"]*white-space:pre-wrap/);
      expect(message!.html).not.toMatch(/<style|class="/);
      // The plain-text part: the words, the post's address and the personal unsubscribe link.
      expect(message!.text).toContain("Read the previous note");
      expect(message!.links).toContain(unsubscribe.href);
      expect(message!.links.some((link) => link.endsWith(`/${handle}/${blogSlug}`))).toBe(true);
    }

    await eventually(() => expect(receiver.received).toHaveLength(1));
    await receiver.close();
    const events = verifiedEvents(receiver, secret);
    expect(events.map((event) => event.type)).toEqual(["newsletter.sent"]);
    expect(events[0]!.data).toEqual({ blogId, total: 3, sent: 3, failed: 0, startedAt: newsletter.startedAt.toISOString(), finishedAt: newsletter.finishedAt!.toISOString() });

    // Edits, unpublishing and republishing never send again.
    await db().blog.update({ where: { id: blogId! }, data: { isPublic: false } });
    await db().blog.update({ where: { id: blogId! }, data: { isPublic: true, title: "Engines, again" } });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    for (const email of active) expect(await emailsTo(email)).toHaveLength(1);
  });

  it("bounces a subscriber whose address SMTP refuses for good, and retries one refused for now", async () => {
    const account = await createTestAccount();
    const [blogId] = await seedBlogs(account.id, [{ title: "Refusals", content: "Hello." }]);
    const [accepted, bouncing, later] = await seedSubscribers(db(), account.id, ["active", "active", "active"]);
    await refuseMailToForGood(bouncing!);
    await refuseMailTo(later!);
    await publishWithNewsletter(db(), blogId!);

    await until(async () => (await refusedAttempts(later!)) >= 1, 30_000, "the address refused for now is tried");
    await acceptMailTo(later!);
    await until(() => sentNewsletter(blogId!), 60_000, "the newsletter is sent");

    expect(await emailsTo(accepted!)).toHaveLength(1);
    expect(await emailsTo(bouncing!)).toHaveLength(0);
    expect(await emailsTo(later!)).toHaveLength(1);
    expect(await newsletterOf(blogId!)).toMatchObject({ total: 3, sent: 2, failed: 1, status: "sent" });
    const bounced = await db().subscriber.findFirstOrThrow({ where: { email: bouncing! } });
    expect(bounced.status).toBe("bounced");
    expect(bounced.bounceReason).toMatch(/^550/);
    const deliveries = await db().newsletterDelivery.findMany({ where: { blogId: blogId! }, include: { subscriber: { select: { email: true } } } });
    const byEmail = Object.fromEntries(deliveries.map((delivery) => [delivery.subscriber.email, delivery]));
    expect(byEmail[bouncing!]).toMatchObject({ status: "failed", attempts: 1 });
    expect(byEmail[later!]).toMatchObject({ status: "sent", attempts: 1 });
    expect(byEmail[accepted!]).toMatchObject({ status: "sent", attempts: 0 });
  });

  it("sends the owner a test email of the post, its subject marked", async () => {
    const account = await createTestAccount();
    const [blogId] = await seedBlogs(account.id, [{ title: "Draft to try", content: "Some *words*." }]);
    const { to } = await sendNewsletterTest(db(), { userId: account.id, blogId: blogId! });
    expect(to).toBe(account.email);
    const [message] = await waitForEmails(account.email);
    expect(message!.subject).toBe("[Test] Draft to try");
    expect(message!.html).toContain("<em>words</em>");
    expect(message!.text).toContain("Some words.");
    // Nothing was sent to subscribers, and no newsletter started.
    expect(await db().newsletter.findUnique({ where: { blogId: blogId! } })).toBeNull();
    const other = await createTestAccount();
    await expect(sendNewsletterTest(db(), { userId: other.id, blogId: blogId! })).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
  });

  it("never puts off the next batch of a newsletter whose last claims are still in flight", async () => {
    // The race CI met: a batch queues its successor for now while another batch, finding only that
    // first batch's claims open, queues the look at their lease's end; the later must not win.
    const account = await createTestAccount();
    const [blogId] = await seedBlogs(account.id, [{ title: "In flight", content: "Hello." }]);
    const [address] = await seedSubscribers(db(), account.id, ["active"]);
    const subscriber = await db().subscriber.findFirstOrThrow({ where: { email: address! } });
    await db().newsletter.create({ data: { blogId: blogId!, userId: account.id, total: 1 } });
    await db().newsletterDelivery.create({ data: { blogId: blogId!, subscriberId: subscriber.id } });
    const jobKey = `${JOB_NAMES.sendNewsletter}:${blogId}`;
    const soon = new Date(Date.now() + 60_000);
    const utils = await makeWorkerUtils({ connectionString: process.env.DATABASE_URL });
    try {
      await utils.addJob(JOB_NAMES.sendNewsletter, { blogId }, { jobKey, runAt: soon });
      // The two of graphile-worker's helpers a batch uses, on its utilities.
      const helpers = {
        withPgClient: (work: Parameters<typeof utils.withPgClient>[0]) => utils.withPgClient(work),
        addJob: (...args: Parameters<typeof utils.addJob>) => utils.addJob(...args),
      } as unknown as JobHelpers;
      await sendNewsletterBatch({ blogId: blogId! }, helpers);
      const { rows } = await utils.withPgClient((client) => client.query<{ run_at: Date }>("SELECT run_at FROM graphile_worker._private_jobs WHERE key = $1", [jobKey]));
      expect(rows.map((row) => row.run_at.getTime())).toEqual([soon.getTime()]);
    } finally {
      await utils.withPgClient((client) => client.query("DELETE FROM graphile_worker._private_jobs WHERE key = $1", [jobKey]));
      await utils.release();
    }
  });
});
