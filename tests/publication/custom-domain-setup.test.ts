// Setting and verifying a custom domain (docs/public-blog.md, Custom domains) against a real DNS
// server on 127.0.0.1 (dns2, UDP, via DNS_SERVERS) and a local server standing in for Vercel's API
// (VERCEL_API_URL). The app's environment is read when its modules load: they are imported once
// both servers listen.
import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import dns2 from "dns2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const { Packet } = dns2;
/** RFC 1035's "name does not exist" (dns2's types leave out its RCODE table). */
const NXDOMAIN = 3;
/** TXT values by name, as the DNS server answers them; an absent name is NXDOMAIN. */
const txtRecords = new Map<string, string[]>();
/** True: the DNS server answers nothing, as an unreachable one. */
let dnsSilent = false;
const dnsServer = dns2.createServer({
  udp: true,
  handle: (request, send) => {
    if (dnsSilent) return;
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const values = question && txtRecords.get(question.name.toLowerCase());
    if (!question || !values) response.header.rcode = NXDOMAIN;
    // dns2's types want a parsed Resource; its encoder takes the plain record (README, "DNS server").
    else for (const data of values) response.answers.push({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data } as unknown as (typeof response.answers)[number]);
    send(response);
  },
});

/** What the stand-in for Vercel's API was asked, and what it answers next (status, body). */
const vercelCalls: { method: string; url: string; authorization: string | undefined; body: string }[] = [];
let vercelAnswer = { status: 200, body: {} as object };
const vercel = createServer(async (req: IncomingMessage, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  vercelCalls.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body: Buffer.concat(chunks).toString() });
  res.writeHead(vercelAnswer.status, { "content-type": "application/json" }).end(JSON.stringify(vercelAnswer.body));
});

let app: {
  db: typeof import("../support/api").db;
  createTestAccount: typeof import("../support/api").createTestAccount;
  verifyDomain: typeof import("~/server/publication/domains").verifyDomain;
  getDomainRecord: typeof import("~/server/publication/domains").getDomainRecord;
  updatePublicationAndHosting: typeof import("~/server/publication/vercel-domains").updatePublicationAndHosting;
};

beforeAll(async () => {
  const { udp } = await dnsServer.listen({ udp: { port: 0, address: "127.0.0.1" } });
  vercel.listen(0, "127.0.0.1");
  await once(vercel, "listening");
  Object.assign(process.env, {
    DNS_SERVERS: `127.0.0.1:${udp!.port}`,
    VERCEL_API_URL: `http://127.0.0.1:${(vercel.address() as AddressInfo).port}`,
    VERCEL_TOKEN: "test-token",
    VERCEL_PROJECT_ID: "prj_test",
    VERCEL_TEAM_ID: "team_test",
  });
  const [support, domains, hosting] = await Promise.all([import("../support/api"), import("~/server/publication/domains"), import("~/server/publication/vercel-domains")]);
  app = { db: support.db, createTestAccount: support.createTestAccount, ...domains, ...hosting };
});

afterAll(async () => {
  await dnsServer.close();
  vercel.close();
});

const unique = () => Math.random().toString(36).slice(2, 10);

async function accountWithDomain() {
  const account = await app.createTestAccount();
  const domain = `blog-${unique()}.example.test`;
  await app.updatePublicationAndHosting(app.db(), account.id, { domain });
  const record = await app.getDomainRecord(app.db(), account.id);
  return { account, domain, record: record! };
}

/** The refusal verifyDomain answers, as { message, details }. */
async function refusal(accountId: string) {
  const error = await app.verifyDomain(app.db(), accountId).then(
    () => null,
    (failure: { message: string; details: string; code: string }) => failure,
  );
  expect(error).not.toBeNull();
  return { code: error!.code, message: error!.message, details: error!.details };
}

describe("DNS verification", () => {
  it("verifies the domain once _blogmgr.<domain> holds the token, among other values", async () => {
    const { account, domain, record } = await accountWithDomain();
    expect(record).toEqual({ domain, name: `_blogmgr.${domain}`, value: expect.stringMatching(/^blogmgr-verify=[\w-]{24}$/), verified: false });

    expect(await refusal(account.id)).toMatchObject({ code: "PRECONDITION_FAILED", message: "DNS record not found" });
    txtRecords.set(record.name, ["v=spf1 -all", "blogmgr-verify=someone-elses"]);
    const wrong = await refusal(account.id);
    expect(wrong.message).toBe("DNS record does not match");
    expect(wrong.details).toContain('"blogmgr-verify=someone-elses"');
    expect((await app.db().publication.findUniqueOrThrow({ where: { userId: account.id } })).domainVerifiedAt).toBeNull();

    txtRecords.set(record.name, ["v=spf1 -all", record.value]);
    const verified = await app.verifyDomain(app.db(), account.id);
    expect(verified.domain).toBe(domain);
    expect(await app.getDomainRecord(app.db(), account.id)).toMatchObject({ verified: true });
  });

  it("starts over when the domain changes: a new token, unverified", async () => {
    const { account, record } = await accountWithDomain();
    txtRecords.set(record.name, [record.value]);
    await app.verifyDomain(app.db(), account.id);
    const other = `other-${unique()}.example.test`;
    await app.updatePublicationAndHosting(app.db(), account.id, { domain: other });
    const next = (await app.getDomainRecord(app.db(), account.id))!;
    expect(next).toMatchObject({ domain: other, verified: false });
    expect(next.value).not.toBe(record.value);
    // The old record proves nothing about the new domain.
    expect((await refusal(account.id)).message).toBe("DNS record not found");
  });

  it("says DNS is unreachable when the servers do not answer, and that no domain is set", async () => {
    const { account } = await accountWithDomain();
    const bare = await app.createTestAccount();
    expect(await refusal(bare.id)).toMatchObject({ message: "No domain set" });
    dnsSilent = true;
    try {
      const started = Date.now();
      expect(await refusal(account.id)).toMatchObject({ code: "PRECONDITION_FAILED", message: "DNS unreachable" });
      // One try, 3 s: the owner is waiting.
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      dnsSilent = false;
    }
  });
});

describe("Vercel", () => {
  it("adds a new domain to the project, removes the one it replaces, and tells the owner what Vercel refused", async () => {
    const account = await app.createTestAccount();
    const first = `first-${unique()}.example.test`;
    const second = `second-${unique()}.example.test`;
    vercelCalls.length = 0;
    vercelAnswer = { status: 200, body: { name: first } };
    expect(await app.updatePublicationAndHosting(app.db(), account.id, { domain: first })).toMatchObject({ domain: first, hostingError: null });
    expect(vercelCalls).toEqual([
      { method: "POST", url: "/v10/projects/prj_test/domains?teamId=team_test", authorization: "Bearer test-token", body: JSON.stringify({ name: first }) },
    ]);

    // Unchanged: Vercel is not asked again.
    await app.updatePublicationAndHosting(app.db(), account.id, { domain: first, title: "Renamed" });
    expect(vercelCalls).toHaveLength(1);

    vercelAnswer = { status: 403, body: { error: { code: "forbidden", message: "Not authorized" } } };
    const refused = await app.updatePublicationAndHosting(app.db(), account.id, { domain: second });
    expect(refused.domain).toBe(second);
    expect(refused.hostingError).toBe(`Vercel did not remove ${first} from the project: Not authorized; Vercel did not add ${second} to the project: Not authorized`);
    expect(vercelCalls.slice(1).map((call) => `${call.method} ${call.url}`)).toEqual([
      `DELETE /v9/projects/prj_test/domains/${first}?teamId=team_test`,
      "POST /v10/projects/prj_test/domains?teamId=team_test",
    ]);
    // Kept whatever Vercel said.
    expect(await app.getDomainRecord(app.db(), account.id)).toMatchObject({ domain: second });
  });
});
