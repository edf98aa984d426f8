import { createServer, type IncomingHttpHeaders } from "node:http";
import { Webhook } from "standardwebhooks";
import { expect } from "vitest";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The status of each answer in order; 200 once they run out. */
  statuses: number[];
  /** The most requests it was answering at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1, as a customer would run one, answering after `delayMs`. */
export async function startReceiver(statuses: number[] = [], delayMs = 0): Promise<Receiver> {
  const received: Received[] = [];
  let inFlight = 0;
  const server = createServer((req, res) => {
    let body = "";
    receiver.maxInFlight = Math.max(receiver.maxInFlight, ++inFlight);
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body, at: Date.now() });
      res.statusCode = receiver.statuses.shift() ?? 200;
      setTimeout(() => {
        inFlight--;
        res.end(res.statusCode === 200 ? "thanks" : "not now");
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    statuses,
    maxInFlight: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return receiver;
}

export interface VerifiedEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** Every request verified with the standardwebhooks library and the endpoint's secret. */
export function verifiedEvents(receiver: Receiver, secret: string): VerifiedEvent[] {
  const webhook = new Webhook(secret);
  return receiver.received.map(({ headers, body }) => {
    const payload = webhook.verify(body, headers as Record<string, string>) as Omit<VerifiedEvent, "id">;
    return { id: headers["webhook-id"] as string, ...payload };
  });
}

/** Waits until `check` passes (deliveries are asynchronous), up to `timeoutMs`. */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

export function expectTypes(events: VerifiedEvent[], types: string[]): void {
  expect(events.map((event) => event.type).sort()).toEqual([...types].sort());
}
