/**
 * A TCP proxy a test puts between a server and its database or rate-limit store, to cut every
 * connection at a chosen moment. With PostgreSQL framing it reads the client's protocol messages,
 * so a cut can land exactly before a given statement reaches the database, or right after the
 * database received it (its answer then never comes back). Without framing each chunk read from
 * the client counts as one message.
 *
 * After a cut the proxy is down: new connections are accepted and closed at once (the client sees
 * its connection terminated) until `restore()`.
 */
import { createServer, connect, type Server, type Socket } from "node:net";

/** A message from the client: its type ("Q" query, "P" parse, "S" sync, ...) and SQL text if any. */
export interface ClientMessage {
  type: string;
  /** The SQL of a Query or Parse message; the whole chunk (latin1) without framing; else "". */
  text: string;
}

export interface CutOptions {
  /**
   * Deliver the matching statement first: forward it up to its Sync (the statement runs), then
   * close the database's side gracefully and drop the client's, so its answer is lost.
   */
  deliver?: boolean;
  /**
   * Accept new connections at once: only those open at the cut die, as when the database restarts
   * while the server's pool still holds connections to it.
   */
  reopen?: boolean;
}

export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlThrough(url: string): string;
  /** Cuts every connection when the client sends a message that `matches`; resolves with that message. */
  cutWhen(matches: (message: ClientMessage) => boolean, options?: CutOptions): Promise<ClientMessage>;
  /** Lets connections through again. */
  restore(): void;
  close(): Promise<void>;
}

interface Trigger {
  matches: (message: ClientMessage) => boolean;
  options: CutOptions;
  fired: (message: ClientMessage) => void;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

interface Connection {
  client: Socket;
  upstream: Socket;
}

export async function startTcpProxy(target: { host: string; port: number }, framing: "postgres" | "none" = "none"): Promise<TcpProxy> {
  const connections = new Set<Connection>();
  let down = false;
  let trigger: Trigger | undefined;

  const cutAll = (reopen = false) => {
    down = !reopen;
    for (const { client, upstream } of connections) {
      client.destroy();
      upstream.destroy();
    }
    connections.clear();
  };

  // The database's side of `connection` ends after the bytes delivered (a FIN once they are
  // flushed, so the database runs them); the client's side and every other connection drop at once.
  const deliverAndCut = (connection: Connection, reopen?: boolean) => {
    connections.delete(connection);
    connection.upstream.end();
    connection.client.destroy();
    cutAll(reopen);
  };

  const server: Server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const connection = { client, upstream: connect(target) };
    const { upstream } = connection;
    connections.add(connection);
    const drop = () => {
      // A connection deliverAndCut took out lets its database side finish on its own.
      if (!connections.delete(connection)) return;
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    upstream.on("data", (chunk: Buffer) => client.write(chunk));

    const frames = framing === "postgres" ? postgresFrames() : rawFrames();
    let deliverUntilSync = false;
    let reopenAfterDelivery: boolean | undefined;
    client.on("data", (chunk: Buffer) => {
      for (const { bytes, message } of frames(chunk)) {
        if (!connections.has(connection)) return;
        const armed = trigger;
        const matched = !deliverUntilSync && armed !== undefined && armed.matches(message);
        if (matched) {
          trigger = undefined;
          armed.fired(message);
          if (!armed.options.deliver) return cutAll(armed.options.reopen); // the database never sees this message
          // An extended-protocol statement runs once its Sync arrives; a simple Query as sent.
          deliverUntilSync = message.type === "P";
          reopenAfterDelivery = armed.options.reopen;
        }
        upstream.write(bytes);
        if ((matched && !deliverUntilSync) || (deliverUntilSync && message.type === "S")) deliverAndCut(connection, reopenAfterDelivery);
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;

  return {
    port,
    urlThrough(url) {
      const through = new URL(url);
      through.hostname = "127.0.0.1";
      through.port = String(port);
      return through.href;
    },
    cutWhen(matches, options = {}) {
      return new Promise((fired) => {
        trigger = { matches, options, fired };
      });
    },
    restore() {
      trigger = undefined;
      down = false;
    },
    close() {
      cutAll();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

interface Frame {
  bytes: Buffer;
  message: ClientMessage;
}

function rawFrames(): (chunk: Buffer) => Frame[] {
  return (chunk) => [{ bytes: chunk, message: { type: "", text: chunk.toString("latin1") } }];
}

/**
 * Splits the client's byte stream into PostgreSQL protocol messages: first the untyped startup
 * messages (an SSL or GSS request may precede the real one), then typed messages (type byte and
 * length). Incomplete messages wait for the rest of their bytes.
 */
function postgresFrames(): (chunk: Buffer) => Frame[] {
  let pending = Buffer.alloc(0);
  let startup = true;
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    const frames: Frame[] = [];
    for (;;) {
      const headerLength = startup ? 4 : 5;
      if (pending.length < headerLength) break;
      const length = startup ? pending.readInt32BE(0) : 1 + pending.readInt32BE(1);
      if (pending.length < length) break;
      const bytes = pending.subarray(0, length);
      pending = pending.subarray(length);
      if (startup) {
        const code = bytes.readInt32BE(4);
        startup = code === SSL_REQUEST || code === GSSENC_REQUEST;
        frames.push({ bytes, message: { type: "startup", text: "" } });
      } else {
        frames.push({ bytes, message: typedMessage(bytes) });
      }
    }
    return frames;
  };
}

function typedMessage(bytes: Buffer): ClientMessage {
  const type = String.fromCharCode(bytes[0]!);
  const body = bytes.subarray(5);
  const cString = (from: number) => body.toString("utf8", from, body.indexOf(0, from));
  switch (type) {
    case "Q": // Query: the SQL
      return { type, text: cString(0) };
    case "P": // Parse: statement name, then the SQL
      return { type, text: cString(body.indexOf(0) + 1) };
    default:
      return { type, text: "" };
  }
}
