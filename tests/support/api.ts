import { randomUUID } from "node:crypto";
import type { ImageFormat } from "~/shared/images";
import type { Plan } from "~/shared/plans";
import { createAccount } from "~/server/accounts/create-account";
import { getDb } from "~/server/db";
import { createApiKey, type CreateApiKeyInput } from "~/server/keys/create-api-key";
import { PERMISSIONS } from "~/shared/permissions";

/** The server under test: started by `npm test` (scripts/test.ts), which sets API_BASE_URL. */
export function apiBaseUrl(): string {
  const url = process.env.API_BASE_URL;
  if (!url) throw new Error("API_BASE_URL is not set: run HTTP tests through `npm test`");
  return url;
}

export const db = () => getDb();

/** A GET of one of the app's paths (a page, a feed, a sitemap) on the server under test. */
export const getPath = (path: string, headers: Record<string, string> = {}) => fetch(new URL(path, apiBaseUrl()), { headers });

export interface TestAccount {
  id: string;
  email: string;
  handle: string;
  /** A key with every permission. */
  key: string;
}

/** A fresh account of its own, so tests never share data or rate-limit budgets. */
export async function createTestAccount(plan: Plan = "enterprise"): Promise<TestAccount> {
  const email = `t-${randomUUID()}@example.test`;
  const account = await createAccount(db(), { email, password: "password-123", plan });
  const key = await createTestKey(account.id);
  return { id: account.id, email, handle: account.handle, key };
}

export async function createTestKey(
  accountId: string,
  options: Partial<Omit<CreateApiKeyInput, "accountId">> = {},
): Promise<string> {
  const created = await createApiKey(db(), {
    accountId,
    name: "test key",
    permissions: [...PERMISSIONS],
    ...options,
  });
  return created.key;
}

export interface BlogSeed {
  title?: string;
  blogSlug?: string;
  isPublic?: boolean;
  allowApiAccess?: boolean;
  createdAt?: Date;
  description?: string;
  content?: string;
  tags?: string[];
}

/** Inserts blogs directly (API access on unless said otherwise); returns their ids in input order. */
export async function seedBlogs(accountId: string, blogs: BlogSeed[]): Promise<string[]> {
  const rows = blogs.map((blog, i) => ({
    id: `blog${randomUUID().replaceAll("-", "")}`,
    userId: accountId,
    title: blog.title ?? `Blog ${i + 1}`,
    blogSlug: blog.blogSlug ?? `blog-${i + 1}-${randomUUID().slice(0, 8)}`,
    description: blog.description ?? "",
    content: blog.content ?? "",
    tags: blog.tags ?? [],
    isPublic: blog.isPublic ?? false,
    allowApiAccess: blog.allowApiAccess ?? true,
    createdAt: blog.createdAt ?? new Date(Date.UTC(2025, 0, 1) + i * 60_000),
  }));
  await db().blog.createMany({ data: rows });
  return rows.map((row) => row.id);
}

/**
 * Inserts an image's row directly (no upload, no files): enough for what reads its id, size and
 * format (a blog's cover, the pages' <picture>). Returns its id.
 */
export async function seedImage(accountId: string, image: { width?: number; height?: number; format?: ImageFormat; bytes?: number } = {}): Promise<string> {
  const { width = 2000, height = 1000, format = "jpeg", bytes = 123_456 } = image;
  const { id } = await db().image.create({ data: { userId: accountId, width, height, format, bytes, storedBytes: bytes * 4, fileName: `${width}x${height}.${format}` }, select: { id: true } });
  return id;
}

export type KeyTransport = "x-api-key" | "bearer" | "query";

export interface CallOptions {
  key?: string;
  via?: KeyTransport;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Another server than the one under test (a test's own). */
  baseUrl?: string;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
  /** The body as the envelope it must be. */
  json: { success: boolean; data?: any; error?: { code: string; message: string; details?: string } };
}

/** One real HTTP request to the server under test. */
export async function call(path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const url = new URL(`/api/v1${path}`, options.baseUrl ?? apiBaseUrl());
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) {
    if (options.via === "bearer") headers.authorization = `Bearer ${options.key}`;
    else if (options.via === "query") url.searchParams.set("api_key", options.key);
    else headers["x-api-key"] = options.key;
  }
  const response = await fetch(url, { method: options.method ?? "GET", headers, body: options.body });
  const text = await response.text();
  const body: unknown = text ? JSON.parse(text) : null;
  return { status: response.status, headers: response.headers, body, json: body as ApiResponse["json"] };
}

