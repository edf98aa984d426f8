import { TRPCError } from "@trpc/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ApiError, errorEnvelope, statusOf, toApiError } from "~/server/api/errors";
import { DomainError } from "~/server/common/domain-error";
import { log } from "~/server/runtime/log";
import { requiredTitle } from "~/shared/blog-fields";

afterEach(() => vi.restoreAllMocks());

function zodErrorOf(schema: z.ZodType, value: unknown): z.ZodError {
  const result = schema.safeParse(value);
  if (result.success) throw new Error("expected a validation failure");
  return result.error;
}

describe("error mapping (README, The API: statuses and codes)", () => {
  it("gives every code its documented status", () => {
    expect(statusOf("INVALID_PARAMETER")).toBe(400);
    expect(statusOf("MISSING_REQUIRED_FIELD")).toBe(400);
    expect(statusOf("MISSING_API_KEY")).toBe(401);
    expect(statusOf("INVALID_API_KEY")).toBe(401);
    expect(statusOf("INSUFFICIENT_PERMISSIONS")).toBe(403);
    expect(statusOf("RESOURCE_NOT_FOUND")).toBe(404);
    expect(statusOf("METHOD_NOT_ALLOWED")).toBe(405);
    expect(statusOf("RESOURCE_CONFLICT")).toBe(409);
    expect(statusOf("PAYLOAD_TOO_LARGE")).toBe(413);
    expect(statusOf("UNSUPPORTED_MEDIA_TYPE")).toBe(415);
    expect(statusOf("RATE_LIMIT_EXCEEDED")).toBe(429);
    expect(statusOf("INTERNAL_SERVER_ERROR")).toBe(500);
    expect(statusOf("SERVICE_UNAVAILABLE")).toBe(503);
  });

  it("writes the error envelope, with details only when there are some", () => {
    expect(errorEnvelope(new ApiError("RESOURCE_NOT_FOUND", "Blog not found"))).toEqual({
      success: false,
      error: { code: "RESOURCE_NOT_FOUND", message: "Blog not found" },
    });
    expect(errorEnvelope(new ApiError("INVALID_PARAMETER", "Invalid parameter: limit", "limit must be an integer between 1 and 50"))).toEqual({
      success: false,
      error: { code: "INVALID_PARAMETER", message: "Invalid parameter: limit", details: "limit must be an integer between 1 and 50" },
    });
  });

  it("keeps an ApiError as it is and carries a DomainError's code, message and details, wrapped or not", () => {
    const apiError = new ApiError("RATE_LIMIT_EXCEEDED", "Rate limit exceeded");
    expect(toApiError(apiError)).toBe(apiError);
    const domain = new DomainError("RESOURCE_CONFLICT", "blogSlug already used", "hello");
    for (const thrown of [domain, new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: domain })]) {
      const mapped = toApiError(thrown);
      expect([mapped.apiCode, mapped.message, mapped.details, mapped.httpStatus()]).toEqual(["RESOURCE_CONFLICT", "blogSlug already used", "hello", 409]);
    }
  });

  it("names the field of the first validation issue; a missing required field has its own code", () => {
    const schema = z.object({ limit: z.int({ error: "limit must be an integer between 1 and 50" }) });
    const invalid = toApiError(new TRPCError({ code: "BAD_REQUEST", cause: zodErrorOf(schema, { limit: "x" }) }));
    expect([invalid.apiCode, invalid.message, invalid.details]).toEqual(["INVALID_PARAMETER", "Invalid parameter: limit", "limit must be an integer between 1 and 50"]);

    const missing = toApiError(zodErrorOf(z.object({ title: requiredTitle }), {}));
    expect([missing.apiCode, missing.message, missing.details]).toEqual(["MISSING_REQUIRED_FIELD", "Missing required field: title", "title is required"]);
  });

  it("decides MISSING_REQUIRED_FIELD from the issue's marker, never from its message", () => {
    const create = z.object({ title: requiredTitle, blogSlug: z.string().optional() });
    for (const body of [{}, { title: null }, { title: "   " }, { title: "  ", blogSlug: 7 }]) {
      const reworded = new z.ZodError(zodErrorOf(create, body).issues.map((issue) => ({ ...issue, message: "Bitte einen Titel angeben" })));
      const missing = toApiError(reworded);
      expect([missing.apiCode, missing.field, missing.details]).toEqual(["MISSING_REQUIRED_FIELD", "title", "Bitte einen Titel angeben"]);
    }
    const sameWords = z.object({ title: z.string().refine(() => false, { error: "title is required" }) });
    const invalid = toApiError(zodErrorOf(sameWords, { title: "x" }));
    expect([invalid.apiCode, invalid.field, invalid.details]).toEqual(["INVALID_PARAMETER", "title", "title is required"]);
    expect(toApiError(zodErrorOf(create, { title: 7 })).apiCode).toBe("INVALID_PARAMETER");
  });

  it("answers a malformed JSON body with 400 and tRPC's own refusals with their codes", () => {
    const parse = toApiError(new TRPCError({ code: "PARSE_ERROR", message: "Unexpected token" }));
    expect([parse.apiCode, parse.message]).toEqual(["INVALID_PARAMETER", "Malformed JSON body"]);
    const method = toApiError(new TRPCError({ code: "METHOD_NOT_SUPPORTED", message: "Unsupported GET-request to mutation procedure" }));
    expect([method.apiCode, method.httpStatus()]).toEqual(["METHOD_NOT_ALLOWED", 405]);
    expect(toApiError(new TRPCError({ code: "NOT_FOUND" })).apiCode).toBe("RESOURCE_NOT_FOUND");
  });

  it("turns an unreachable database into a 503 and anything else into a bare 500, never showing its text, logged once", () => {
    const logged = vi.spyOn(log, "error").mockImplementation(() => undefined);
    const refused = Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:5432"), { code: "ECONNREFUSED" });
    const unavailable = toApiError(new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: refused }));
    expect([unavailable.apiCode, unavailable.message]).toEqual(["SERVICE_UNAVAILABLE", "Service temporarily unavailable"]);

    const failure = new Error('relation "blog" does not exist');
    const internal = toApiError(failure);
    expect([internal.apiCode, internal.message, internal.details]).toEqual(["INTERNAL_SERVER_ERROR", "Internal server error", undefined]);
    expect(toApiError(failure)).toBe(internal);
    expect(logged).toHaveBeenCalledTimes(2);
  });
});

describe("a value the database refused (a data exception that slipped past the input rules)", () => {
  it.each([
    ["pg", Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: "22021", severity: "ERROR" })],
    ["pg, out of range", Object.assign(new Error("value out of range"), { code: "22003" })],
    ["Prisma's driver adapter", Object.assign(new Error("Invalid `prisma.blog.create()` invocation"), { code: "P2010", meta: { driverAdapterError: { cause: { originalCode: "22P05" } } } })],
  ])("is a 400 INVALID_PARAMETER from %s, without the database's text", (_, error) => {
    vi.spyOn(log, "warn").mockImplementation(() => undefined);
    const apiError = toApiError(new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: error }));
    expect(apiError.apiCode).toBe("INVALID_PARAMETER");
    expect(apiError.httpStatus()).toBe(400);
    expect(JSON.stringify(errorEnvelope(apiError))).not.toMatch(/byte sequence|prisma|range/i);
  });

  it("leaves other SQLSTATEs alone: a unique violation's 23505 is no data exception", () => {
    vi.spyOn(log, "error").mockImplementation(() => undefined);
    expect(toApiError(Object.assign(new Error("duplicate key"), { code: "23505" })).apiCode).toBe("INTERNAL_SERVER_ERROR");
  });
});
