import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { initTRPC, TRPCError } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z, ZodError } from "zod";
import { createOpenApiAdapter, type OpenApiOutcome } from "~/server/api/rest/openapi-adapter";
import { createRouteMatcher, routesOfRouter } from "~/server/api/rest/routes";
import { strictBoolean } from "~/shared/blog-fields";

/**
 * What /api/v1 relies on from trpc-to-openapi (src/server/api/rest/openapi-adapter.ts, its
 * handler's steps from the library's own parts, after the routing of src/server/api/rest/routes.ts),
 * on a tiny router of its own: the path's parameters, the success body written as the procedure's data, failures handed back as the error
 * thrown (input failures with their zod issues), and the coercion of booleans that makes the API's
 * own boolean schemas necessary. A new version of the library that changes any of it fails here.
 */

const t = initTRPC.context<{ caller: string }>().meta<OpenApiMeta & { successStatus?: number }>().create();

/** Plain z.boolean(): the library switches it to coercion, in the schema object itself. */
const plainBoolean = z.boolean();

class CustomRefusal extends TRPCError {
  constructor() {
    super({ code: "CONFLICT", message: "taken" });
  }
}

const router = t.router({
  create: t.procedure
    .meta({ openapi: { method: "POST", path: "/things" }, successStatus: 201 })
    .input(z.object({ name: z.string(), flag: plainBoolean, strict: strictBoolean("strict").optional() }))
    .output(z.any())
    .mutation(({ input, ctx }) => ({ ...input, caller: ctx.caller })),
  list: t.procedure
    .meta({ openapi: { method: "GET", path: "/things" } })
    .input(z.object({ page: z.number().optional(), flag: z.boolean().optional() }))
    .output(z.any())
    .query(({ input }) => input),
  refuse: t.procedure
    .meta({ openapi: { method: "DELETE", path: "/things/{id}" } })
    .input(z.object({ id: z.string() }))
    .output(z.any())
    .mutation(({ input }) => {
      if (input.id === "typed") throw new CustomRefusal();
      throw new Error("boom");
    }),
});

const matchRoute = createRouteMatcher(routesOfRouter(router));
const callOpenApi = createOpenApiAdapter({ createContext: (options: { caller: string }) => options });

/** The adapter's outcome, with the status of the route it was routed to. */
type RoutedOutcome = (OpenApiOutcome & { ok: false }) | (OpenApiOutcome & { ok: true; status: number });

let server: Server;
let baseUrl: string;
let lastOutcome: RoutedOutcome;

beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString();
      const url = new URL(req.url ?? "/", "http://localhost");
      const method = req.method ?? "GET";
      const match = matchRoute(method, url.pathname.slice("/api".length));
      if (!match || !("route" in match)) throw new Error(`no route for ${method} ${url.pathname}`);
      const { route, pathInput } = match;
      const outcome = await callOpenApi({
        procedure: route.procedure!,
        pathInput,
        method,
        url,
        body: text ? (JSON.parse(text) as unknown) : undefined,
        contextOptions: { caller: "tester" },
      });
      lastOutcome = outcome.ok ? { ...outcome, status: route.successStatus } : outcome;
      res.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function call(method: string, path: string, body?: unknown): Promise<RoutedOutcome> {
  await fetch(baseUrl + path, {
    method,
    // A spelling the library itself refuses: the adapter declares the parsed body as JSON.
    headers: body === undefined ? {} : { "Content-Type": "application/json; charset=utf-8" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return lastOutcome;
}

describe("trpc-to-openapi through the adapter", () => {
  it("answers a success with the route's success status, the procedure's data as JSON and the context given", async () => {
    const outcome = await call("POST", "/things", { name: "a", flag: true });
    expect(outcome).toMatchObject({ ok: true, status: 201 });
    if (!outcome.ok) return;
    expect(JSON.parse(outcome.body)).toEqual({ name: "a", flag: true, caller: "tester" });
  });

  it("answers 200 where the route says so, reading the query by name with numbers coerced", async () => {
    const outcome = await call("GET", "/things?page=2");
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    if (outcome.ok) expect(JSON.parse(outcome.body)).toEqual({ page: 2 });
  });

  it("coerces plain booleans, in the query and in the body: 'false' and 'yes' become true", async () => {
    const query = await call("GET", "/things?flag=false");
    expect(query.ok && JSON.parse(query.body)).toEqual({ flag: true });
    const body = await call("POST", "/things", { name: "a", flag: "yes" });
    expect(body.ok && (JSON.parse(body.body) as { flag: unknown }).flag).toBe(true);
    // In the schema object itself, for every other user of it.
    expect(plainBoolean.safeParse("no").success).toBe(true);
  });

  it("leaves a piped boolean (strictBoolean) strict", async () => {
    const outcome = await call("POST", "/things", { name: "a", flag: true, strict: "yes" });
    expect(outcome.ok).toBe(false);
  });

  it("hands back an input failure as BAD_REQUEST caused by the ZodError, its issues naming the field", async () => {
    const outcome = await call("POST", "/things", { flag: true });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toBeInstanceOf(TRPCError);
    const error = outcome.error as TRPCError;
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.cause).toBeInstanceOf(ZodError);
    expect((error.cause as ZodError).issues[0]?.path).toEqual(["name"]);
  });

  it("builds no fetch Request", async () => {
    // The library's handler, handed Node's request, would build one per call for its abort signal.
    const original = globalThis.Request;
    let built = 0;
    globalThis.Request = new Proxy(original, {
      construct(target, args: ConstructorParameters<typeof Request>) {
        built += 1;
        return Reflect.construct(target, args);
      },
    });
    try {
      expect(await call("GET", "/things?page=2")).toMatchObject({ ok: true, status: 200 });
      expect(await call("POST", "/things", { name: "a", flag: true })).toMatchObject({ ok: true, status: 201 });
    } finally {
      globalThis.Request = original;
    }
    expect(built).toBe(0);
  });

  it("hands back a thrown TRPCError as is, and any other error wrapped as its cause", async () => {
    const typed = await call("DELETE", "/things/typed");
    expect(!typed.ok && typed.error).toBeInstanceOf(CustomRefusal);
    const plain = await call("DELETE", "/things/other");
    expect(plain.ok).toBe(false);
    if (plain.ok) return;
    expect((plain.error as TRPCError).code).toBe("INTERNAL_SERVER_ERROR");
    expect((plain.error as TRPCError).cause?.message).toBe("boom");
  });
});
