// Subscribing from a publication's pages (docs/newsletters.md, Subscribing), over HTTP against the
// server under test and its mailbox: the double opt-in, the same answer for every address, one
// confirmation per 10 minutes and the per-address email cap, the plan's quota, expired and unknown
// links, the unsubscribe page and RFC 8058 one-click, custom domains, and the subscriber.* webhook
// events the database records.
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getSqlPool } from "~/server/db";
import { pruneUnconfirmedSubscribers } from "~/server/subscribers/prune";
import { CONFIRMATIONS_PER_PUBLICATION_HOUR, subscriberSchema } from "~/shared/subscribers";
import { apiBaseUrl, createTestAccount, db, type TestAccount } from "../support/api";
import { runCli } from "../support/cli";
import { emailsTo, waitForEmails, waitForLink } from "../support/mailbox";
import { eventually, expectTypes, startReceiver, verifiedEvents, type Receiver } from "../webhooks/receiver";

vi.setConfig({ testTimeout: 60_000 });

const run = randomBytes(4).toString("hex");
let serial = 0;
/** An address of this test run's own: the mailbox and the cap see each as a new inbox. */
const address = (label: string) => `${label}-${run}-${++serial}@example.com`;
const main = (html: string) => /<main[\s\S]*?<\/main>/.exec(html)?.[0] ?? "";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

const subscribe = (handle: string, email: string) =>
  fetch(new URL(`/${handle}/subscribe`, apiBaseUrl()), { method: "POST", body: new URLSearchParams({ email }).toString(), headers: FORM, redirect: "manual" });

const subscriberOf = (account: TestAccount, email: string) => db().subscriber.findUnique({ where: { userId_email: { userId: account.id, email: email.toLowerCase() } } });

/** What a reader's browser sees of a page. */
async function visit(url: string, init: RequestInit = {}) {
  const response = await fetch(url, { redirect: "manual", ...init });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** Lets the send_email job run, then says whether `to` got anything (a sent email arrives within a second or two). */
async function settledEmailsTo(to: string) {
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  return emailsTo(to);
}

let owner: TestAccount;
beforeAll(async () => {
  owner = await createTestAccount();
  await db().publication.create({ data: { userId: owner.id, title: "Engine Notes" } });
});

describe("the double opt-in", () => {
  it("keeps a new address pending, emails it a confirmation link, and makes it active when followed", async () => {
    const email = address("Reader");
    const response = await subscribe(owner.handle, `  ${email} `);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/${owner.handle}/subscribe`);

    const pending = await subscriberOf(owner, email);
    expect(pending).toMatchObject({ email: email.toLowerCase(), status: "pending", source: "form", confirmedAt: null });
    expect(pending!.unsubscribeToken).toMatch(/^[A-Za-z0-9_-]{32}$/);

    const { email: message, link } = await waitForLink(email.toLowerCase());
    expect(message.subject).toBe("Confirm your subscription to Engine Notes");
    expect(link).toMatch(new RegExp(`^${new URL(apiBaseUrl()).origin}/${owner.handle}/subscribe/confirm\\?token=[A-Za-z0-9_-]{32}$`));
    const token = new URL(link).searchParams.get("token")!;
    const stored = await subscriberOf(owner, email);
    // Only its hash is kept.
    expect(stored!.confirmTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored!.confirmationSentAt).not.toBeNull();

    // A HEAD (a mail scanner's check) confirms nothing.
    expect((await fetch(link, { method: "HEAD" })).status).toBe(200);
    expect((await subscriberOf(owner, email))!.status).toBe("pending");

    const confirmed = await visit(link);
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers.get("cache-control")).toBe("no-store");
    expect(confirmed.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(main(confirmed.body)).toContain("You&#x27;re subscribed to Engine Notes");
    expect(confirmed.body).not.toMatch(/<script(?![^>]*application\/ld\+json)/);
    const active = await subscriberOf(owner, email);
    expect(active).toMatchObject({ status: "active", confirmTokenHash: null });
    expect(active!.confirmedAt).not.toBeNull();

    // The link is spent.
    const again = await visit(link);
    expect(again.status).toBe(404);
    expect(main(again.body)).toContain("This confirmation link is not valid");
  });

  it("answers the same 303, Location and body for a new, pending, active, unsubscribed and bounced address", async () => {
    const states = { pending: address("pending"), active: address("active"), unsubscribed: address("unsubscribed"), bounced: address("bounced") };
    for (const [status, email] of Object.entries(states)) {
      await db().subscriber.create({ data: { userId: owner.id, email, source: "api", status: status as "active", unsubscribeToken: randomBytes(24).toString("base64url") } });
    }
    const answers = [];
    for (const email of [address("new"), ...Object.values(states)]) {
      const startedAt = Date.now();
      const response = await subscribe(owner.handle, email);
      answers.push({ status: response.status, location: response.headers.get("location"), body: await response.text(), type: response.headers.get("content-type") });
      // No sooner than the floor (SUBSCRIBE_ANSWER_MS), whatever the database had to do.
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(300);
    }
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]!.status).toBe(303);

    // Active and bounced addresses get nothing; pending and unsubscribed ones a confirmation.
    await waitForEmails(states.pending);
    await waitForEmails(states.unsubscribed);
    expect(await settledEmailsTo(states.active)).toEqual([]);
    expect(await emailsTo(states.bounced)).toEqual([]);
    // An unsubscribed address stays so until it confirms.
    expect((await subscriberOf(owner, states.unsubscribed))!.status).toBe("unsubscribed");
    const { link } = await waitForLink(states.unsubscribed);
    expect((await visit(link)).status).toBe(200);
    expect(await subscriberOf(owner, states.unsubscribed)).toMatchObject({ status: "active", unsubscribedAt: null });

    const checkInbox = await visit(new URL(`/${owner.handle}/subscribe`, apiBaseUrl()).href);
    expect(checkInbox.status).toBe(200);
    expect(main(checkInbox.body)).toContain("Check your inbox");
    expect(main(checkInbox.body)).toContain("valid for 7 days");
    expect(main(checkInbox.body)).toContain("spam");
    expect(checkInbox.body).not.toContain("not open yet");
  });

  it("sends one confirmation per address per 10 minutes: a second post sends nothing and keeps the first link working", async () => {
    const email = address("twice");
    await subscribe(owner.handle, email);
    const { link } = await waitForLink(email);
    expect((await subscribe(owner.handle, email)).status).toBe(303);
    expect(await settledEmailsTo(email)).toHaveLength(1);
    expect((await visit(link)).status).toBe(200);

    // Ten minutes later, a pending address gets a new link, which replaces the old one.
    const other = address("later");
    await subscribe(owner.handle, other);
    const first = (await waitForLink(other)).link;
    await db().subscriber.update({ where: { userId_email: { userId: owner.id, email: other } }, data: { confirmationSentAt: new Date(Date.now() - 11 * 60_000) } });
    await subscribe(owner.handle, other);
    const second = (await waitForLink(other, 2)).link;
    expect(second).not.toBe(first);
    expect((await visit(first)).status).toBe(404);
    expect((await visit(second)).status).toBe(200);
  });

  it("counts confirmations in the per-address email cap: the sixth within a quarter hour to one inbox is not sent", async () => {
    // `+tags` are one inbox to the cap (docs/security.md, Emails per address), five addresses here.
    const inbox = `capped-${run}`;
    const tagged = Array.from({ length: 6 }, (_, i) => `${inbox}+${i}@example.com`);
    for (const email of tagged.slice(0, 5)) expect((await subscribe(owner.handle, email)).status).toBe(303);
    for (const email of tagged.slice(0, 5)) await waitForEmails(email);
    expect((await subscribe(owner.handle, tagged[5]!)).status).toBe(303);
    expect(await settledEmailsTo(tagged[5]!)).toEqual([]);
    // Kept pending, without a link: a post after the cap's window sends one.
    expect(await subscriberOf(owner, tagged[5]!)).toMatchObject({ status: "pending", confirmTokenHash: null, confirmationSentAt: null });
  });

  it("answers an expired link 410 with the form to subscribe again, and an unknown one 404", async () => {
    const email = address("slow");
    await subscribe(owner.handle, email);
    const { link } = await waitForLink(email);
    await db().subscriber.update({ where: { userId_email: { userId: owner.id, email } }, data: { confirmationSentAt: new Date(Date.now() - 7 * 24 * 3_600_000 - 60_000) } });
    const expired = await visit(link);
    expect(expired.status).toBe(410);
    expect(expired.headers.get("cache-control")).toBe("no-store");
    expect(main(expired.body)).toContain("This confirmation link has expired");
    expect(main(expired.body)).toContain(`<form action="${new URL(apiBaseUrl()).origin}/${owner.handle}/subscribe" method="post">`);
    expect((await subscriberOf(owner, email))!.status).toBe("pending");

    for (const query of ["?token=nope", "", "?token=" + "a".repeat(500)]) {
      const unknown = await visit(new URL(`/${owner.handle}/subscribe/confirm${query}`, apiBaseUrl()).href);
      expect(unknown.status, query).toBe(404);
      expect(main(unknown.body)).toContain("This confirmation link is not valid");
    }
    // Another publication's link is none here.
    const other = await createTestAccount();
    expect((await visit(link.replace(`/${owner.handle}/`, `/${other.handle}/`))).status).toBe(404);
    expect((await visit(new URL("/no-such-handle-here/subscribe/confirm?token=x", apiBaseUrl()).href)).status).toBe(404);
  });

  it("stores nothing past the plan's subscriber quota, answering the same 303", async () => {
    const free = await createTestAccount("free");
    await db().subscriber.createMany({
      data: Array.from({ length: 1_000 }, (_, i) => ({ userId: free.id, email: `quota-${i}@example.com`, source: "import" as const, status: i % 2 ? ("unsubscribed" as const) : ("active" as const), unsubscribeToken: randomBytes(24).toString("base64url") })),
    });
    const email = address("over");
    const response = await subscribe(free.handle, email);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/${free.handle}/subscribe`);
    expect(await subscriberOf(free, email)).toBeNull();
    expect(await db().subscriber.count({ where: { userId: free.id } })).toBe(1_000);
    expect(await settledEmailsTo(email)).toEqual([]);
  });

  it("sends a publication at most 100 confirmations an hour, whatever the addresses: the 101st stays pending, unsent", async () => {
    const busy = await createTestAccount();
    const sentAt = new Date(Date.now() - 30 * 60 * 1000);
    await db().subscriber.createMany({
      data: Array.from({ length: CONFIRMATIONS_PER_PUBLICATION_HOUR }, (_, i) => ({ userId: busy.id, email: `asked-${i}@example.com`, source: "form" as const, confirmationSentAt: sentAt, unsubscribeToken: randomBytes(24).toString("base64url") })),
    });
    const email = address("one-too-many");
    const response = await subscribe(busy.handle, email);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/${busy.handle}/subscribe`);
    expect(await subscriberOf(busy, email)).toMatchObject({ status: "pending", confirmationSentAt: null });
    expect(await settledEmailsTo(email.toLowerCase())).toEqual([]);
    // An hour on, the publication may send again.
    await db().subscriber.updateMany({ where: { userId: busy.id, confirmationSentAt: sentAt }, data: { confirmationSentAt: new Date(Date.now() - 61 * 60 * 1000) } });
    expect((await subscribe(busy.handle, email)).status).toBe(303);
    await waitForLink(email.toLowerCase());
  });

  it("forgets, at the hourly maintenance, pending addresses whose link ran out; keeps the rest", async () => {
    const account = await createTestAccount();
    const old = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    const recent = new Date(Date.now() - 24 * 60 * 60 * 1000);
    const row = (email: string, status: "pending" | "active" | "unsubscribed", createdAt: Date, confirmationSentAt: Date | null) =>
      ({ userId: account.id, email, status, source: "form" as const, createdAt, confirmationSentAt, unsubscribeToken: randomBytes(24).toString("base64url") });
    await db().subscriber.createMany({
      data: [
        row("expired@example.com", "pending", old, old),
        row("never-sent@example.com", "pending", old, null),
        row("asked-again@example.com", "pending", old, recent),
        row("new@example.com", "pending", recent, recent),
        row("active@example.com", "active", old, old),
        row("left@example.com", "unsubscribed", old, old),
      ],
    });
    await pruneUnconfirmedSubscribers(getSqlPool());
    const kept = await db().subscriber.findMany({ where: { userId: account.id }, select: { email: true }, orderBy: { email: "asc" } });
    expect(kept.map((subscriber) => subscriber.email)).toEqual(["active@example.com", "asked-again@example.com", "left@example.com", "new@example.com"]);
  });
});

describe("the unsubscribe link", () => {
  async function activeSubscriber(email = address("unsub")) {
    const token = randomBytes(24).toString("base64url");
    await db().subscriber.create({ data: { userId: owner.id, email, source: "api", status: "active", confirmedAt: new Date(), unsubscribeToken: token } });
    return { email, url: new URL(`/${owner.handle}/unsubscribe?token=${token}`, apiBaseUrl()).href };
  }

  it("shows the address masked, its status and a button on GET, changing nothing", async () => {
    const { email, url } = await activeSubscriber();
    const page = await visit(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.body).toContain(`<meta name="robots" content="noindex, nofollow"/>`);
    expect(main(page.body)).toContain(`u…@example.com is subscribed`);
    expect(page.body).not.toContain(email);
    expect(main(page.body)).toContain(`<form action="${url}" method="post">`);
    expect(main(page.body)).toContain(`<button type="submit">Unsubscribe</button>`);
    expect(page.body).not.toMatch(/<script(?![^>]*application\/ld\+json)/);
    expect((await subscriberOf(owner, email))!.status).toBe("active");
  });

  it("unsubscribes at once on an RFC 8058 one-click POST with no cookie, then offers the subscribe form", async () => {
    const { email, url } = await activeSubscriber();
    const posted = await visit(url, { method: "POST", body: "List-Unsubscribe=One-Click", headers: FORM });
    expect(posted.status).toBe(200);
    expect(main(posted.body)).toContain("You&#x27;re unsubscribed from Engine Notes");
    const row = await subscriberOf(owner, email);
    expect(row!.status).toBe("unsubscribed");
    expect(row!.unsubscribedAt).not.toBeNull();

    const page = await visit(url);
    expect(main(page.body)).toContain("is unsubscribed");
    expect(main(page.body)).not.toContain(">Unsubscribe</button>");
    expect(main(page.body)).toContain(`action="${new URL(apiBaseUrl()).origin}/${owner.handle}/subscribe"`);
    // Again: nothing changes, the same page.
    expect((await visit(url, { method: "POST", body: "List-Unsubscribe=One-Click", headers: FORM })).status).toBe(200);
    expect((await subscriberOf(owner, email))!.unsubscribedAt).toEqual(row!.unsubscribedAt);
  });

  it("accepts a multipart one-click, refuses an oversize body, and leaves a bounced subscriber bounced", async () => {
    const { email, url } = await activeSubscriber();
    const multipart = new FormData();
    multipart.set("List-Unsubscribe", "One-Click");
    expect((await visit(url, { method: "POST", body: multipart })).status).toBe(200);
    expect((await subscriberOf(owner, email))!.status).toBe("unsubscribed");

    const big = await activeSubscriber();
    expect((await visit(big.url, { method: "POST", body: "x".repeat(10_000), headers: FORM })).status).toBe(413);
    expect((await subscriberOf(owner, big.email))!.status).toBe("active");

    const bounced = await activeSubscriber();
    await db().subscriber.update({ where: { userId_email: { userId: owner.id, email: bounced.email } }, data: { status: "bounced" } });
    const page = await visit(bounced.url, { method: "POST", body: "List-Unsubscribe=One-Click", headers: FORM });
    expect(page.status).toBe(200);
    expect(main(page.body)).toContain("could not be delivered");
    expect((await subscriberOf(owner, bounced.email))!.status).toBe("bounced");
  });

  it("answers 404 for an unknown token or none, on GET and POST; other methods 405", async () => {
    for (const query of ["?token=unknown", ""]) {
      const url = new URL(`/${owner.handle}/unsubscribe${query}`, apiBaseUrl()).href;
      expect((await visit(url)).status).toBe(404);
      expect((await visit(url, { method: "POST", body: "List-Unsubscribe=One-Click", headers: FORM })).status).toBe(404);
    }
    const put = await fetch(new URL(`/${owner.handle}/unsubscribe?token=x`, apiBaseUrl()), { method: "PUT" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, HEAD, POST");
    const confirmPost = await fetch(new URL(`/${owner.handle}/subscribe/confirm?token=x`, apiBaseUrl()), { method: "POST" });
    expect(confirmPost.status).toBe(405);
    expect(confirmPost.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("on a custom domain", () => {
  const domain = `news-${run}.example.test`;
  let domainOwner: TestAccount;

  /** A request with the Host header given (fetch cannot set it). */
  function send(method: string, path: string, body = ""): Promise<{ status: number; location?: string; body: string }> {
    const base = new URL(apiBaseUrl());
    return new Promise((resolve, reject) => {
      const req = request({ host: base.hostname, port: base.port, method, path, headers: { host: domain, ...(body && { ...FORM, "content-length": String(Buffer.byteLength(body)) }) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode!, location: res.headers.location, body: Buffer.concat(chunks).toString() }));
      });
      req.on("error", reject).end(body);
    });
  }

  beforeAll(async () => {
    domainOwner = await createTestAccount();
    await db().publication.create({ data: { userId: domainOwner.id, title: "Domain News", domain, domainToken: "blogmgr-verify=d", domainVerifiedAt: new Date() } });
  });

  it("subscribes at /subscribe with a link under https://<domain>, confirmed and unsubscribed there", async () => {
    const email = address("domain");
    const posted = await send("POST", "/subscribe", new URLSearchParams({ email }).toString());
    expect(posted.status).toBe(303);
    expect(posted.location).toBe("/subscribe");
    const { link } = await waitForLink(email);
    expect(link).toMatch(new RegExp(`^https://${domain.replace(/\./g, "\\.")}/subscribe/confirm\\?token=`));
    const { pathname, search } = new URL(link);
    const confirmed = await send("GET", pathname + search);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toContain("Domain News");

    const { unsubscribeToken } = (await subscriberOf(domainOwner, email))!;
    const page = await send("GET", `/unsubscribe?token=${unsubscribeToken}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`action="https://${domain}/unsubscribe?token=${unsubscribeToken}"`);
    expect((await send("POST", `/unsubscribe?token=${unsubscribeToken}`, "List-Unsubscribe=One-Click")).status).toBe(200);
    expect((await subscriberOf(domainOwner, email))!.status).toBe("unsubscribed");
  });
});

describe("webhook events", () => {
  let account: TestAccount;
  let receiver: Receiver;
  let secret: string;

  beforeAll(async () => {
    [account, receiver] = await Promise.all([createTestAccount(), startReceiver()]);
    const created = await runCli(["webhook", "create", "--email", account.email, "--url", receiver.url, "--events", "subscriber.created,subscriber.unsubscribed"]);
    expect(created.stderr).toBe("");
    ({ secret } = JSON.parse(created.stdout) as { secret: string });
  });
  afterAll(() => receiver?.close());

  it("subscriber.created on the first confirmation (not on the pending post, nor on a later one), subscriber.unsubscribed on unsubscribing", async () => {
    const email = address("hooked");
    await subscribe(account.handle, email);
    const { link } = await waitForLink(email);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.received).toHaveLength(0);
    expect((await visit(link)).status).toBe(200);
    await eventually(() => expect(receiver.received).toHaveLength(1));

    const { unsubscribeToken } = (await subscriberOf(account, email))!;
    const url = new URL(`/${account.handle}/unsubscribe?token=${unsubscribeToken}`, apiBaseUrl()).href;
    await visit(url, { method: "POST", body: "List-Unsubscribe=One-Click", headers: FORM });
    await eventually(() => expect(receiver.received).toHaveLength(2));

    // Back through a new confirmation: active again, no second subscriber.created.
    await db().subscriber.update({ where: { userId_email: { userId: account.id, email } }, data: { confirmationSentAt: null } });
    await subscribe(account.handle, email);
    expect((await visit((await waitForLink(email, 2)).link)).status).toBe(200);
    expect((await subscriberOf(account, email))!.status).toBe("active");

    // Made active at once (the API, an import): subscriber.created when written.
    const direct = await db().subscriber.create({ data: { userId: account.id, email: address("direct"), name: "Dee", source: "import", status: "active", confirmedAt: new Date(), unsubscribeToken: randomBytes(24).toString("base64url") } });
    await eventually(() => expect(receiver.received).toHaveLength(3));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.received).toHaveLength(3);

    const events = verifiedEvents(receiver, secret);
    expectTypes(events, ["subscriber.created", "subscriber.unsubscribed", "subscriber.created"]);
    for (const event of events) expect(subscriberSchema.strict().parse(event.data)).toEqual(event.data);
    const [created, unsubscribed, imported] = events.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    expect(created!.type).toBe("subscriber.created");
    expect(created!.data).toMatchObject({ email: email.toLowerCase(), name: "", status: "active", source: "form", unsubscribedAt: null });
    expect(unsubscribed!.type).toBe("subscriber.unsubscribed");
    expect(unsubscribed!.data).toMatchObject({ email: email.toLowerCase(), status: "unsubscribed" });
    expect(unsubscribed!.data.unsubscribedAt).toEqual(expect.stringMatching(/Z$/));
    expect(imported!.data).toEqual({
      id: direct.id,
      email: direct.email,
      name: "Dee",
      status: "active",
      source: "import",
      createdAt: direct.createdAt.toISOString(),
      confirmedAt: direct.confirmedAt!.toISOString(),
      unsubscribedAt: null,
    });
  });
});
