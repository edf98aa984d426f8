import { describe, expect, it } from "vitest";
import { isConnectionLost, isDatabaseUnavailable, retryIfConnectionLost } from "~/server/db/connection-errors";

const terminated = () => new Error("Connection terminated unexpectedly");
/** How Prisma reports a connection the server closed mid-transaction. */
const prismaClosed = () => Object.assign(new Error("Server has closed the connection."), { code: "P1017" });
const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

describe("connection errors", () => {
  it("count a dead connection and an unreachable server as unavailable, wrapped or not", () => {
    for (const error of [terminated(), prismaClosed(), refused(), new Error("wrapped", { cause: prismaClosed() })]) {
      expect(isDatabaseUnavailable(error), error.message).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error("duplicate key value violates unique constraint"))).toBe(false);
  });

  it("count only a connection that existed and died as lost, not a refusal", () => {
    expect([terminated(), prismaClosed()].map(isConnectionLost)).toEqual([true, true]);
    expect(isConnectionLost(refused())).toBe(false);
  });

  it("run the work again after a lost connection, three times at most", async () => {
    let runs = 0;
    await expect(retryIfConnectionLost(async () => (++runs < 3 ? Promise.reject(terminated()) : "third"))).resolves.toBe("third");
    runs = 0;
    await expect(retryIfConnectionLost(async () => Promise.reject(Object.assign(terminated(), { run: ++runs })))).rejects.toMatchObject({ run: 3 });
    runs = 0;
    await expect(retryIfConnectionLost(async () => Promise.reject(Object.assign(refused(), { run: ++runs })))).rejects.toMatchObject({ run: 1 });
  });
});
