import { expect } from "vitest";
import { appRouter } from "~/server/api/root";
import type { Meta } from "~/server/api/trpc";
import { apiBaseUrl, type TestAccount } from "./api";
import { freshLoopbackAddress, httpRequest } from "./http-client";

/** The dashboard's side of the server under test: better-auth sign-in and /api/trpc calls. */

export interface TrpcAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** Every procedure of the app router by its /api/trpc path ("blogs.get"), with what it is. */
export interface ProcedureInfo {
  path: string;
  type: "query" | "mutation";
  /** The REST operation it serves (an API procedure, also the owner's on /api/trpc), or null for an owner-only procedure. */
  openapi: { method: string; path: string } | null;
  /** Who may call it, as its meta declares (src/server/api/trpc.ts). */
  meta: Meta;
}

export const PROCEDURES: ProcedureInfo[] = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { type: ProcedureInfo["type"]; meta?: Meta } }>,
).map(([path, procedure]) => ({ path, type: procedure._def.type, openapi: procedure._def.meta?.openapi ?? null, meta: procedure._def.meta ?? {} }));

export const DASHBOARD_PROCEDURES = PROCEDURES.filter((p) => !p.openapi);
export const API_KEY_PROCEDURES = PROCEDURES.filter((p) => p.openapi);

/** The headers of a form the app's own pages send (better-auth accepts only same-origin posts). */
const formHeaders = (baseUrl: string) => ({ "content-type": "application/json", origin: new URL(baseUrl).origin });

/**
 * Signs in through better-auth as the browser does; returns the session cookie (`name=value`).
 * Each sign-in connects from a loopback address of its own: the sign-in throttle counts per
 * client address, and the suite signs in far more often than a person would in a minute.
 */
export async function signIn(account: Pick<TestAccount, "email">, baseUrl = apiBaseUrl()): Promise<string> {
  const answer = await authPost("/sign-in/email", { email: account.email, password: "password-123" }, undefined, baseUrl);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.cookie).toBeDefined();
  return answer.cookie!;
}

/** A better-auth endpoint (/api/auth/...) called as the sign-up and settings forms call it, from a fresh loopback address unless told. */
export async function authPost(
  path: string,
  body: unknown,
  cookie?: string,
  baseUrl = apiBaseUrl(),
  localAddress = freshLoopbackAddress(),
): Promise<TrpcAnswer & { cookie?: string }> {
  const answer = await httpRequest(baseUrl, `/api/auth${path}`, {
    method: "POST",
    headers: { ...formHeaders(baseUrl), ...(cookie && { cookie }) },
    body,
    localAddress,
  });
  const setCookie = answer.headers["set-cookie"] ?? [];
  const session = (Array.isArray(setCookie) ? setCookie : [setCookie]).find((c) => c.includes("session_token="));
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  }
  return { status: answer.status, headers, body: answer.body ? JSON.parse(answer.body) : null, cookie: session?.split(";")[0] };
}

export interface TrpcOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  baseUrl?: string;
}

/** One unbatched /api/trpc call: a query as GET with `?input=`, a mutation as POST with a JSON body. */
export async function trpc(cookie: string | null, procedure: string, input?: unknown, options: TrpcOptions = {}): Promise<TrpcAnswer> {
  const method = options.method ?? (PROCEDURES.find((p) => p.path === procedure)?.type === "mutation" ? "POST" : "GET");
  const url = new URL(`/api/trpc/${procedure}`, options.baseUrl ?? apiBaseUrl());
  if (method === "GET" && input !== undefined) url.searchParams.set("input", JSON.stringify(input));
  const response = await fetch(url, {
    method,
    // A mutation carries the page's origin, as the browser sends it (src/server/http/same-origin-request.ts).
    headers: { "content-type": "application/json", ...(method === "POST" && { origin: url.origin }), ...(cookie && { cookie }), ...options.headers },
    body: method === "POST" ? JSON.stringify(input ?? {}) : undefined,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}
