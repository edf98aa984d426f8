import "server-only";
import { createHash } from "node:crypto";
import { Redis } from "ioredis";

import type { ScriptClient } from "./upstash";

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

// Redis 7.0 rejects the library's first line `#!lua flags=allow-key-locking` ("Unexpected flag in
// script shebang"); the scripts declare their keys properly and run the same without it.
const withoutShebang = (script: string) => script.replace(/^#!.*\n/, "");

/** Serves @upstash/ratelimit's evalsha/eval calls from an ioredis connection. */
export function adaptIoredis(redis: Redis): ScriptClient {
  // The library's hash (SHA-1 of its script, shebang included) -> SHA-1 of the script Redis cached.
  const loadedHashes = new Map<string, string>();
  return {
    async evalsha<TArgs extends unknown[], TData = unknown>(hash: string, keys: string[], args: TArgs) {
      const loaded = loadedHashes.get(hash);
      // On NOSCRIPT the library calls eval() with the full script, which loads it below.
      if (!loaded) throw new Error("NOSCRIPT script not loaded through this adapter yet");
      return (await redis.evalsha(loaded, keys.length, ...keys, ...(args as (string | number)[]))) as TData;
    },
    async eval<TArgs extends unknown[], TData = unknown>(script: string, keys: string[], args: TArgs) {
      const runnable = withoutShebang(script);
      const result = await redis.eval(runnable, keys.length, ...keys, ...(args as (string | number)[]));
      // EVAL leaves the script in Redis's script cache; a flush or restart answers NOSCRIPT again.
      loadedHashes.set(sha1(script), sha1(runnable));
      return result as TData;
    },
  };
}

const clientsByUrl = new Map<string, ScriptClient>();

/** One connection per Redis URL in the process, opened by its first command. */
export function redisScriptClient(url: string): ScriptClient {
  let client = clientsByUrl.get(url);
  if (!client) {
    const redis = new Redis(url, {
      lazyConnect: true,
      // While the server is down or hung, a queued command is dropped at the first failed connection
      // attempt, and a connection that stops answering is torn down: nothing waits forever.
      maxRetriesPerRequest: 0,
      connectTimeout: 2_000,
      socketTimeout: 2_000,
    });
    // Failed commands are logged once per incident by the fail-open wrapper; without a listener
    // ioredis prints every reconnect attempt.
    redis.on("error", () => {});
    client = adaptIoredis(redis);
    clientsByUrl.set(url, client);
  }
  return client;
}
