import type { SchemaObject } from "openapi3-ts/oas31";
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { PLAN_HOURLY_LIMITS } from "~/shared/plans";
import { statusOf, type ApiErrorCode } from "../errors";
import { appRouter } from "../root";
import { REST_ROUTES, type RestRoute } from "./routes";

type Operation = { responses?: Record<string, unknown> };

const EXAMPLE_MESSAGES: Record<ApiErrorCode, [message: string, details?: string]> = {
  MISSING_API_KEY: ["API key is required"],
  INVALID_API_KEY: ["Invalid API key"],
  INSUFFICIENT_PERMISSIONS: ["This API key lacks the read:blogs permission"],
  RATE_LIMIT_EXCEEDED: [
    "Rate limit exceeded",
    "Hourly limit of 100 requests exceeded; the limit resets at 2026-11-22T04:00:00.000Z",
  ],
  INVALID_PARAMETER: ["Invalid parameter: limit", "limit must be an integer between 1 and 50"],
  MISSING_REQUIRED_FIELD: ["Missing required field: title", "title is required"],
  RESOURCE_NOT_FOUND: ["Resource not found"],
  METHOD_NOT_ALLOWED: ["Method POST is not allowed on /api/v1/openapi.json", "Allowed: GET"],
  RESOURCE_CONFLICT: ["Resource conflict", "A blog with the slug my-first-post already exists"],
  PRECONDITION_FAILED: ["Precondition failed", "The blog has changed since it was read: read it again (its ETag) and retry"],
  PAYLOAD_TOO_LARGE: ["Payload too large", "The request body must be at most 1 MiB"],
  UNSUPPORTED_MEDIA_TYPE: ["Unsupported media type", "The request body must be application/json"],
  INTERNAL_SERVER_ERROR: ["Internal server error"],
  SERVICE_UNAVAILABLE: ["Service temporarily unavailable"],
};

/** Codes every key-authenticated operation can answer with, on top of its own. */
const COMMON_ERRORS: ApiErrorCode[] = [
  "MISSING_API_KEY",
  "INVALID_API_KEY",
  "INSUFFICIENT_PERMISSIONS",
  "RATE_LIMIT_EXCEEDED",
  "INTERNAL_SERVER_ERROR",
  "SERVICE_UNAVAILABLE",
];

const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": {
    description: `Requests allowed per hour for the account's plan (${Object.entries(PLAN_HOURLY_LIMITS)
      .map(([plan, limit]) => `${plan} ${limit}`)
      .join(", ")})`,
    schema: { type: "integer" },
  },
  "X-RateLimit-Remaining": { description: "Requests remaining in the current hour", schema: { type: "integer" } },
  "X-RateLimit-Reset": {
    description: "Unix time in seconds at which the current window (a UTC clock hour) resets",
    schema: { type: "integer" },
  },
  "X-Request-Id": { description: "Identifier of this request, for support", schema: { type: "string" } },
};

const ERROR_ENVELOPE_SCHEMA: SchemaObject = {
  type: "object",
  required: ["success", "error"],
  additionalProperties: false,
  properties: {
    success: { type: "boolean", const: false },
    error: {
      type: "object",
      required: ["code", "message"],
      additionalProperties: false,
      properties: {
        code: { type: "string", enum: Object.keys(EXAMPLE_MESSAGES), description: "Machine-readable code" },
        message: { type: "string", description: "Human-readable message" },
        details: { type: "string", description: "Extra text, present on some errors" },
      },
    },
  },
};

/** Error responses of an operation, grouped by status, each code shown as an example. */
function errorResponses(codes: ApiErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of codes) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, statusCodes]) => [
      String(status),
      {
        description: statusCodes.join(" or "),
        headers: status === 429 ? { ...RATE_LIMIT_HEADERS, "Retry-After": { schema: { type: "integer" } } } : RATE_LIMIT_HEADERS,
        content: {
          "application/json": {
            schema: { $ref: "#/components/schemas/ErrorEnvelope" },
            examples: Object.fromEntries(
              statusCodes.map((code) => {
                const [message, details] = EXAMPLE_MESSAGES[code];
                return [code, { value: { success: false, error: { code, message, ...(details && { details }) } } }];
              }),
            ),
          },
        },
      },
    ]),
  );
}

function describeOperation(operation: Operation, route: RestRoute): void {
  // trpc-to-openapi documents every success as 200; the route knows the status it answers (201 on create).
  const success = Object.entries(operation.responses ?? {}).filter(([status]) => Number(status) < 400);
  operation.responses = {
    ...Object.fromEntries(success.map(([, response]) => [String(route.successStatus), { ...(response as object), headers: RATE_LIMIT_HEADERS }])),
    ...errorResponses([...route.errors, ...COMMON_ERRORS]),
  };
}

function buildDocument(): OpenAPIObject {
  const document = generateOpenApiDocument(appRouter, {
    title: "Blog Management API",
    version: "1.0.0",
    description:
      "Manage your blogs programmatically. Authenticate with an API key (x-api-key header recommended). " +
      "Every response is JSON with a top-level boolean `success`. Rate limits are counted per account per UTC clock hour.",
    baseUrl: "/api/v1",
    securitySchemes: {
      ApiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key", description: "Recommended" },
      BearerAuth: { type: "http", scheme: "bearer", description: "Authorization: Bearer <API_KEY>" },
      ApiKeyQuery: { type: "apiKey", in: "query", name: "api_key", description: "For testing only" },
    },
  });
  for (const route of REST_ROUTES) {
    const operation = document.paths?.[route.template]?.[route.method.toLowerCase() as "get"] as Operation | undefined;
    if (operation) describeOperation(operation, route);
  }
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ErrorEnvelope: ERROR_ENVELOPE_SCHEMA },
  };
  return document;
}

let document: OpenAPIObject | undefined;

/** The OpenAPI document of /api/v1, generated once from the procedures, its server at `serverUrl`. */
export function openApiDocument(serverUrl: string): OpenAPIObject {
  document ??= buildDocument();
  return { ...document, servers: [{ url: serverUrl }] };
}
