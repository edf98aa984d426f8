import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../../scripts/lib/cluster";
import { call, createTestAccount, db } from "../support/api";
import { awayFromTheHourEnd, clusterOptions, countBy } from "./cluster-support";

/**
 * Restarting the three instances one after the other under a steady load through the balancer:
 * each drains on SIGTERM (src/server/http/server.ts), so no request fails, no write is lost and
 * the usage counted equals the requests sent (docs/deploying.md, Graceful shutdown).
 */
let cluster: Cluster;
const output: Buffer[] = [];

beforeAll(async () => {
  cluster = await startCluster({ ...clusterOptions("rolling-restart"), onOutput: (chunk) => output.push(chunk) });
});
afterAll(() => cluster?.stop());

/** Clients sending one request after another, each waiting this long between its requests. */
const CLIENTS = 6;
const PAUSE_MS = 20;

interface Outcome {
  kind: "read" | "create";
  status: number | string;
  blogId?: string;
}

describe("rolling restarts behind the balancer", () => {
  it("lose no request, no write and no usage count", async () => {
    await awayFromTheHourEnd();
    const account = await createTestAccount();
    const outcomes: Outcome[] = [];
    let loading = true;

    async function client(index: number): Promise<void> {
      for (let n = 0; loading; n++) {
        const kind = n % 3 === 2 ? "create" : "read";
        const request =
          kind === "create"
            ? call("/blogs", {
                key: account.key,
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ title: `Client ${index} write ${n}` }),
                baseUrl: cluster.balancerUrl,
              })
            : call("/blogs?limit=5", { key: account.key, baseUrl: cluster.balancerUrl });
        try {
          const answer = await request;
          outcomes.push({ kind, status: answer.status, blogId: answer.status === 201 ? answer.json.data.blog.id : undefined });
        } catch (error) {
          outcomes.push({ kind, status: `network error: ${(error as Error).message}` });
        }
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      }
    }

    const clients = Array.from({ length: CLIENTS }, (_, i) => client(i));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const restarts = [];
    for (let i = 0; i < cluster.instanceUrls.length; i++) {
      restarts.push(await cluster.restart(i));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    loading = false;
    await Promise.all(clients);

    const failed = outcomes.filter((outcome) => outcome.status !== 200 && outcome.status !== 201);
    const reads = outcomes.filter((outcome) => outcome.kind === "read").length;
    const creates = outcomes.filter((outcome) => outcome.kind === "create");
    console.log(
      `[rolling restart] ${outcomes.length} requests (${reads} reads, ${creates.length} creates), ${failed.length} failed; ` +
        `restarts (exited after / serving after, ms): ${restarts.map((r) => `${r.exitedAfterMs}/${r.servingAfterMs}`).join(", ")}`,
    );
    expect(failed, JSON.stringify(countBy(failed, ({ status }) => status))).toEqual([]);
    expect(restarts.every((restart) => restart.exitedAfterMs < 15_000)).toBe(true);

    // Every write answered is stored, and nothing else.
    const stored = await db().blog.findMany({ where: { userId: account.id }, select: { id: true } });
    expect(new Set(stored.map(({ id }) => id))).toEqual(new Set(creates.map(({ blogId }) => blogId)));

    // Every request is counted once: the stopped instances flushed their usage as they drained,
    // the others within their one-second batch.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const [usage] = await db().$queryRaw<{ requests: number }[]>`
      SELECT COALESCE(sum("requests"), 0)::int AS "requests" FROM "usage_daily" WHERE "userId" = ${account.id}`;
    expect(usage?.requests).toBe(outcomes.length);

    const log = Buffer.concat(output).toString("utf8");
    expect(log.match(/"msg":"drained; exiting"/g)).toHaveLength(cluster.instanceUrls.length);
    expect(log).not.toContain("drain limit reached");
  });
});
