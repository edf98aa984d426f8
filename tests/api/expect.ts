import { expect } from "vitest";
import type { ApiResponse } from "../support/api";

/** The documented blog object's fields (README, The API; docs/api.md, the blog object), sorted: the one list the shape tests compare with. */
export const BLOG_FIELDS = [
  "allowApiAccess", "authors", "blogSlug", "content", "coverImage", "createdAt", "description", "emailSubscribers", "emailedAt", "id", "isPublic",
  "publishAt", "publishedAt",
  "seoDescription", "seoTitle", "status", "tags", "title", "updatedAt",
];

/** An error response in exactly the documented error envelope (README, The API), with the code and status expected. */
export function expectError(response: ApiResponse, status: number, code: string): NonNullable<ApiResponse["json"]["error"]> {
  expect({ status: response.status, code: response.json?.error?.code }).toEqual({ status, code });
  expect(Object.keys(response.json).sort()).toEqual(["error", "success"]);
  expect(response.json.success).toBe(false);
  const error = response.json.error!;
  expect(typeof error.message).toBe("string");
  expect(Object.keys(error).every((k) => ["code", "message", "details"].includes(k))).toBe(true);
  expect(response.headers.get("x-request-id")).toBeTruthy();
  return error;
}

/** A success response in exactly the documented success envelope (README, The API). */
export function expectSuccess(response: ApiResponse, status = 200): any {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(Object.keys(response.json).sort()).toEqual(["data", "success"]);
  expect(response.json.success).toBe(true);
  return response.json.data;
}

export function rateLimitHeaders(response: ApiResponse) {
  return {
    limit: Number(response.headers.get("x-ratelimit-limit")),
    remaining: Number(response.headers.get("x-ratelimit-remaining")),
    reset: Number(response.headers.get("x-ratelimit-reset")),
  };
}

/** Unix seconds of the next UTC clock hour boundary. */
export function nextHourBoundarySeconds(now = Date.now()): number {
  return Math.ceil((now + 1) / 3_600_000) * 3600;
}
