import "server-only";
import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError } from "zod";
import { isMissingFieldIssue } from "~/shared/blog-fields";
import { isDatabaseUnavailable } from "~/server/db/connection-errors";
import { DomainError } from "~/server/common/domain-error";
import { isDataException } from "~/server/db/prisma-errors";
import { log } from "~/server/runtime/log";

/** The API's error codes (README, The API) with their HTTP status and tRPC equivalent. */
const API_ERRORS = {
  MISSING_API_KEY: [401, "UNAUTHORIZED"],
  INVALID_API_KEY: [401, "UNAUTHORIZED"],
  INSUFFICIENT_PERMISSIONS: [403, "FORBIDDEN"],
  EMAIL_NOT_VERIFIED: [403, "FORBIDDEN"],
  RATE_LIMIT_EXCEEDED: [429, "TOO_MANY_REQUESTS"],
  INVALID_PARAMETER: [400, "BAD_REQUEST"],
  MISSING_REQUIRED_FIELD: [400, "BAD_REQUEST"],
  RESOURCE_NOT_FOUND: [404, "NOT_FOUND"],
  METHOD_NOT_ALLOWED: [405, "METHOD_NOT_SUPPORTED"],
  RESOURCE_CONFLICT: [409, "CONFLICT"],
  IMAGE_IN_USE: [409, "CONFLICT"],
  PRECONDITION_FAILED: [412, "PRECONDITION_FAILED"],
  PAYLOAD_TOO_LARGE: [413, "PAYLOAD_TOO_LARGE"],
  QUOTA_EXCEEDED: [413, "PAYLOAD_TOO_LARGE"],
  UNSUPPORTED_MEDIA_TYPE: [415, "UNSUPPORTED_MEDIA_TYPE"],
  INTERNAL_SERVER_ERROR: [500, "INTERNAL_SERVER_ERROR"],
  SERVICE_UNAVAILABLE: [503, "SERVICE_UNAVAILABLE"],
} as const satisfies Record<string, readonly [number, TRPC_ERROR_CODE_KEY]>;

export type ApiErrorCode = keyof typeof API_ERRORS;

const TRPC_REFUSALS = {
  BAD_REQUEST: "INVALID_PARAMETER",
  METHOD_NOT_SUPPORTED: "METHOD_NOT_ALLOWED",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
} as const satisfies Partial<Record<TRPC_ERROR_CODE_KEY, ApiErrorCode>>;

export function statusOf(code: ApiErrorCode): number {
  return API_ERRORS[code][0];
}

/**
 * An error the API reports as is: one of its codes (README, The API), a human message and optional
 * details; `field`, the input field it is about, for the dashboard (tRPC's error data), not the REST envelope.
 */
export class ApiError extends TRPCError {
  readonly apiCode: ApiErrorCode;
  readonly details?: string;
  readonly field?: string;

  constructor(apiCode: ApiErrorCode, message: string, details?: string, options: { field?: string; cause?: unknown } = {}) {
    super({ code: API_ERRORS[apiCode][1], message, cause: options.cause });
    this.apiCode = apiCode;
    this.details = details;
    this.field = options.field;
  }

  httpStatus(): number {
    return statusOf(this.apiCode);
  }
}

export interface ErrorEnvelope {
  success: false;
  error: { code: ApiErrorCode; message: string; details?: string };
}

export function errorEnvelope(error: ApiError): ErrorEnvelope {
  const body: ErrorEnvelope = { success: false, error: { code: error.apiCode, message: error.message } };
  if (error.details !== undefined) body.error.details = error.details;
  return body;
}

/**
 * Turns anything thrown while serving a request into the ApiError the client sees. Unexpected
 * failures become a bare 500 (logged here, never shown); a database that can't be reached, a 503;
 * a value the database refused (a data exception that slipped past the input rules), a 400.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  // The same failure reaches both tRPC's error formatter and the REST handler: convert (and log) it once.
  if (typeof error !== "object" || error === null) return convert(error);
  let converted = conversions.get(error);
  if (!converted) conversions.set(error, (converted = convert(error)));
  return converted;
}

const conversions = new WeakMap<object, ApiError>();

function convert(error: unknown): ApiError {
  if (error instanceof DomainError) return new ApiError(error.code, error.message, error.details, { field: error.field });
  const cause = error instanceof TRPCError ? error.cause : error;
  if (cause instanceof ApiError || cause instanceof DomainError) return toApiError(cause);
  if (cause instanceof ZodError) return invalidInput(cause);
  if (error instanceof TRPCError) {
    if (error.code === "NOT_FOUND") return new ApiError("RESOURCE_NOT_FOUND", "Resource not found");
    // Our body reader's PARSE_ERROR, or tRPC's BAD_REQUEST for a body it could not parse itself.
    if (error.code === "PARSE_ERROR" || (error.code === "BAD_REQUEST" && cause instanceof SyntaxError)) {
      return new ApiError("INVALID_PARAMETER", "Malformed JSON body", "The request body must be valid JSON");
    }
    // tRPC's own refusals of a malformed call (too many calls in a batch, a GET to a mutation) are
    // written for the caller.
    const refusal = TRPC_REFUSALS[error.code as keyof typeof TRPC_REFUSALS];
    if (refusal && !error.cause) return new ApiError(refusal, error.message);
  }
  if (isDataException(cause)) {
    log.warn({ cause: describe(cause) }, "a value the database refused");
    return new ApiError("INVALID_PARAMETER", "Invalid parameter", "a value could not be stored as sent");
  }
  if (isDatabaseUnavailable(error)) {
    log.error({ cause: describe(error) }, "database unavailable");
    return new ApiError("SERVICE_UNAVAILABLE", "Service temporarily unavailable");
  }
  // The client went away and its work was stopped (an upload: docs/security.md, Upload fairness):
  // no failure of the server's, and nobody reads the answer.
  if (cause instanceof DOMException && cause.name === "AbortError") return new ApiError("INTERNAL_SERVER_ERROR", "The client went away");
  log.error({ err: error }, "unexpected error");
  return new ApiError("INTERNAL_SERVER_ERROR", "Internal server error");
}

/**
 * Input validation failure: the first issue names the parameter and its rule, unless a required field
 * is missing, which its schema marks on the issue itself (never read from the message).
 */
function invalidInput(error: ZodError): ApiError {
  const missing = error.issues.find(isMissingFieldIssue);
  if (missing) {
    const field = missing.path.join(".");
    return new ApiError("MISSING_REQUIRED_FIELD", `Missing required field: ${field}`, missing.message, { field });
  }
  const issue = error.issues[0];
  const field = issue?.path.join(".") ?? "";
  const rule = issue?.message ?? "is invalid";
  const details = field && !rule.startsWith(field) ? `${field}: ${rule}` : rule;
  return new ApiError("INVALID_PARAMETER", field ? `Invalid parameter: ${field}` : "Invalid parameter", details, { field: field || undefined });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
