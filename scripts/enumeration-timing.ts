/**
 * Measures whether sign-up, sign-in and password reset answer as fast for a registered address as
 * for an unknown one (docs/security.md, No account enumeration): 50 tries each, alternating, from
 * fresh loopback addresses (so the per-address limits never refuse one), and prints the medians.
 *
 *   npx tsx --conditions=react-server scripts/enumeration-timing.ts http://127.0.0.1:3000 [tries]
 *
 * Run it against a server on a scratch database: it signs up one account and 50 unknown ones, and
 * asks 50 "you already have an account" and 50 reset emails for the known address, which receives
 * only the first few: the others take the capped branch (docs/security.md, Emails per address).
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { freshLoopbackAddress, httpRequest } from "../tests/support/http-client";

const baseUrl = process.argv[2];
const tries = Number(process.argv[3] ?? 50);
if (!baseUrl) {
  console.error("usage: npx tsx --conditions=react-server scripts/enumeration-timing.ts <base URL> [tries]");
  process.exit(2);
}

const PASSWORD = "enumeration-timing-1";
const freshEmail = () => `timing-${randomUUID()}@example.test`;
const freshHandle = () => `t-${randomUUID().slice(0, 12)}`;

async function post(path: string, body: unknown): Promise<{ ms: number; status: number }> {
  const startedAt = performance.now();
  const answer = await httpRequest(baseUrl!, `/api/auth${path}`, { method: "POST", body, localAddress: freshLoopbackAddress() });
  return { ms: performance.now() - startedAt, status: answer.status };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const known = freshEmail();
const signedUp = await post("/sign-up/email", { email: known, password: PASSWORD, name: "Timing", handle: freshHandle() });
if (signedUp.status !== 200) throw new Error(`could not sign up the known account: ${signedUp.status}`);

const endpoints: { name: string; attempt: (email: string) => Promise<{ ms: number; status: number }>; afterKnown?: () => Promise<unknown> }[] = [
  { name: "sign-up", attempt: (email) => post("/sign-up/email", { email, password: PASSWORD, name: "Timing", handle: freshHandle() }) },
  {
    name: "sign-in (wrong password)",
    attempt: (email) => post("/sign-in/email", { email, password: "not-the-password" }),
    // A success resets the address's backoff (docs/security.md, Sign-in), which would otherwise start after 5 failures.
    afterKnown: () => post("/sign-in/email", { email: known, password: PASSWORD }),
  },
  { name: "password reset request", attempt: (email) => post("/request-password-reset", { email }) },
];

console.log(`${tries} tries per address and endpoint against ${baseUrl}, alternating known and unknown`);
for (const endpoint of endpoints) {
  const times = { known: [] as number[], unknown: [] as number[] };
  const statuses = new Set<string>();
  // Two unmeasured rounds first: the first requests of a route compile and warm it.
  for (let i = -2; i < tries; i++) {
    const knownTry = await endpoint.attempt(known);
    await endpoint.afterKnown?.();
    const unknownTry = await endpoint.attempt(freshEmail());
    if (i < 0) continue;
    times.known.push(knownTry.ms);
    times.unknown.push(unknownTry.ms);
    statuses.add(`${knownTry.status}/${unknownTry.status}`);
  }
  const [knownMedian, unknownMedian] = [median(times.known), median(times.unknown)];
  const difference = Math.abs(knownMedian - unknownMedian) / Math.min(knownMedian, unknownMedian);
  console.log(
    `${endpoint.name.padEnd(24)} known ${knownMedian.toFixed(1).padStart(6)} ms, unknown ${unknownMedian.toFixed(1).padStart(6)} ms: ` +
      `${(difference * 100).toFixed(1)}% apart (${difference <= 0.1 ? "within" : "NOT within"} 10%); statuses known/unknown ${[...statuses].join(", ")}`,
  );
}
