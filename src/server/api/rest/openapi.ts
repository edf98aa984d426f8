import "server-only";
import type { HeaderObject, MediaTypeObject, OperationObject, ParameterObject, ReferenceObject, SchemaObject } from "openapi3-ts/oas31";
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { contentTypeOf, IMAGE_FORMATS, MAX_IMAGE_BYTES } from "~/shared/images";
import { PLAN_HOURLY_LIMITS } from "~/shared/plans";
import { statusOf, type ApiErrorCode } from "../errors";
import { MAX_IDEMPOTENCY_KEY_LENGTH } from "../idempotency";
import { appRouter } from "../root";
import { trimmedLengthPattern } from "../routers/blogs/schemas";
import { RATE_LIMIT_PATH, REST_ROUTES, type RestRoute } from "./routes";

type Operation = { operationId?: string; parameters?: unknown[]; responses?: Record<string, unknown> };

const EXAMPLE_MESSAGES: Record<ApiErrorCode, [message: string, details?: string]> = {
  MISSING_API_KEY: ["API key is required"],
  INVALID_API_KEY: ["Invalid API key"],
  INSUFFICIENT_PERMISSIONS: ["This API key lacks the read:blogs permission"],
  EMAIL_NOT_VERIFIED: ["Confirm your email address before creating API keys or webhook endpoints", "Confirm your email address before creating API keys or webhook endpoints: follow the link emailed to owner@example.com, or send a new one with Resend above"],
  RATE_LIMIT_EXCEEDED: [
    "Rate limit exceeded",
    "Hourly limit of 100 requests exceeded; the limit resets at 2026-11-22T04:00:00.000Z",
  ],
  INVALID_PARAMETER: ["Invalid parameter: limit", "limit must be an integer between 1 and 50"],
  MISSING_REQUIRED_FIELD: ["Missing required field: title", "title is required"],
  RESOURCE_NOT_FOUND: ["Resource not found"],
  METHOD_NOT_ALLOWED: ["Method POST is not allowed on /api/v1/openapi.json", "Allowed: GET"],
  RESOURCE_CONFLICT: ["Resource conflict", "A blog with the slug my-first-post already exists"],
  IMAGE_IN_USE: [
    "Image in use",
    'image 9f2c… is used by "Hello world" (cm3x…, cover and content). Remove it from those blogs, or delete with ?force=true: covers using it are cleared and Markdown pointing at it shows its alt text',
  ],
  PRECONDITION_FAILED: ["Precondition failed", "The blog has changed since it was read: read it again (its ETag) and retry"],
  PAYLOAD_TOO_LARGE: ["Payload too large", "The request body must be at most 1 MiB"],
  QUOTA_EXCEEDED: ["Storage quota exceeded", "The free plan stores at most 100 MB of images; this account uses 99.2 MB and the image needs 1.4 MB"],
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

const integer = { type: "integer", minimum: 0 } as const;

/** Every response header the API sends (README, The API), referenced by name from the responses. */
const HEADERS = {
  "X-RateLimit-Limit": {
    description: `Requests allowed per hour for the account's plan (${Object.entries(PLAN_HOURLY_LIMITS)
      .map(([plan, limit]) => `${plan} ${limit}`)
      .join(", ")})`,
    schema: integer,
  },
  "X-RateLimit-Remaining": { description: "Requests remaining in the current hour", schema: integer },
  "X-RateLimit-Reset": { description: "Unix time in seconds at which the current window (a UTC clock hour) resets", schema: integer },
  "X-RateLimit-Used": { description: "Requests counted in the current hour", schema: integer },
  "RateLimit-Policy": {
    description: 'The IETF RateLimit-Policy field: the policy (the plan), its quota and window in seconds, e.g. `"free";q=100;w=3600`',
    schema: { type: "string", pattern: '^"[a-z]+";q=\\d+;w=\\d+$' },
  },
  RateLimit: {
    description: 'The IETF RateLimit field: the policy, requests remaining and seconds until the window resets, e.g. `"free";r=42;t=1234`',
    schema: { type: "string", pattern: '^"[a-z]+";r=\\d+;t=\\d+$' },
  },
  "X-Request-Id": { description: "Identifier of this request, for support", schema: { type: "string", format: "uuid" } },
  "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer", minimum: 1 } },
  ETag: { description: "The representation's entity tag (a strong one), for If-None-Match and If-Match", schema: { type: "string", pattern: '^"[A-Za-z0-9_-]+"$' } },
  "Idempotent-Replayed": { description: "`true` when this is the stored first response to the same Idempotency-Key and body", schema: { type: "string", enum: ["true"] } },
  Allow: { description: "The methods the path serves", schema: { type: "string" } },
} satisfies Record<string, HeaderObject>;
type HeaderName = keyof typeof HEADERS;

const RATE_LIMIT_HEADER_NAMES: HeaderName[] = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Used", "RateLimit-Policy", "RateLimit"];

const headerComponentName = (name: HeaderName) => name.replaceAll("-", "");

/** References to the named header components, as a response's `headers`. */
function headerRefs(...names: HeaderName[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${headerComponentName(name)}` }]));
}

const rateLimited = (...extra: HeaderName[]) => headerRefs("X-Request-Id", ...RATE_LIMIT_HEADER_NAMES, ...extra);

/** The conditional request headers (README, The API), as parameter components. */
const PARAMETERS = {
  IfNoneMatch: {
    name: "If-None-Match",
    in: "header",
    description: "An ETag from an earlier response: 304 Not Modified when it still matches",
    schema: { type: "string", example: '"an-earlier-etag"' },
  },
  IfMatch: {
    name: "If-Match",
    in: "header",
    description: "The ETag the change is based on: 412 Precondition Failed when the blog has changed since; `*`: any current version",
    schema: { type: "string", example: "*" },
  },
} satisfies Record<string, ParameterObject>;
const parameterRef = (name: keyof typeof PARAMETERS) => ({ $ref: `#/components/parameters/${name}` });

/**
 * The Idempotency-Key header of a create, its example naming the operation: one example shared by
 * two creates would be one key sent with two different bodies by a generated suite, which the API
 * refuses (409), and every request after it would lack the object it made.
 */
function idempotencyKeyParameter(operationId: string): ParameterObject {
  return {
    name: "Idempotency-Key",
    in: "header",
    description:
      `A retry with the same key and body within 24 hours gets the first response again and creates nothing. ` +
      `At most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters after trimming; a blank value counts as no key.`,
    schema: { type: "string", pattern: trimmedLengthPattern(0, MAX_IDEMPOTENCY_KEY_LENGTH), example: `${operationId}-3f6c1b0e-8a4d-4b1e-9c7a-2d5e6f708192` },
  };
}

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
        headers: status === 429 ? rateLimited("Retry-After") : status === 503 ? headerRefs("X-Request-Id", "Retry-After") : rateLimited(),
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

const errorResponse = (description: string, headers: Record<string, unknown>) => ({
  description,
  headers,
  content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
});

/** 405 on every operation: the path is served, the method not; Allow names the methods (and a key's account state, as on 404). */
const METHOD_NOT_ALLOWED = errorResponse("METHOD_NOT_ALLOWED", rateLimited("Allow"));

/**
 * Each operation as the handler answers it: its success status (trpc-to-openapi says 200 for all;
 * create answers 201), the headers of every response, the conditional requests (If-None-Match and
 * 304 on reads, If-Match and 412 on changes), Idempotency-Key on create, and its errors.
 */
function describeOperation(operation: Operation, route: RestRoute): void {
  const success = Object.entries(operation.responses ?? {}).filter(([status]) => Number(status) < 400);
  const method = route.method;
  const successHeaders = route.idempotent ? rateLimited("ETag", "Idempotent-Replayed") : rateLimited("ETag");
  const parameters = [
    ...(method === "GET" ? [parameterRef("IfNoneMatch")] : []),
    ...(route.errors.includes("PRECONDITION_FAILED") ? [parameterRef("IfMatch")] : []),
    ...(route.idempotent ? [idempotencyKeyParameter(operation.operationId ?? route.template)] : []),
  ];
  operation.parameters = [...(operation.parameters ?? []), ...parameters];
  operation.responses = {
    ...Object.fromEntries(success.map(([, response]) => [String(route.successStatus), { ...(response as object), headers: successHeaders }])),
    ...(route.alternateSuccess &&
      Object.fromEntries(success.map(([, response]) => [String(route.alternateSuccess!.status), { ...(response as object), description: route.alternateSuccess!.description, headers: successHeaders }]))),
    ...(method === "GET" && { "304": { description: "Not Modified: the If-None-Match ETag still matches", headers: rateLimited("ETag") } }),
    ...errorResponses([...route.errors, ...COMMON_ERRORS]),
    ...(["PUT", "PATCH", "DELETE"].includes(method) && route.errors.includes("PRECONDITION_FAILED") && {
      "412": errorResponse("Precondition Failed: the If-Match ETag no longer matches the blog", rateLimited()),
    }),
    "405": METHOD_NOT_ALLOWED,
  };
}

/** GET /rate_limit: the handler's own route, with no procedure for trpc-to-openapi to read. */
const RATE_LIMIT_OPERATION: OperationObject = {
  operationId: "rateLimit-get",
  summary: "The account's rate-limit state",
  description: "Any valid key, no permission needed; reading it consumes nothing.",
  tags: ["rate limits"],
  security: [{ ApiKeyHeader: [] }, { BearerAuth: [] }, { ApiKeyQuery: [] }],
  responses: {
    "200": {
      description: "The plan, its hourly limit and the current window",
      headers: rateLimited(),
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["success", "data"],
            additionalProperties: false,
            properties: {
              success: { type: "boolean", const: true },
              data: {
                type: "object",
                required: ["plan", "limit", "used", "remaining", "reset"],
                additionalProperties: false,
                properties: {
                  plan: { type: "string", enum: Object.keys(PLAN_HOURLY_LIMITS) },
                  limit: integer,
                  used: integer,
                  remaining: integer,
                  reset: { ...integer, description: "Unix time in seconds at which the window resets" },
                },
              },
            },
          },
        },
      },
    },
    ...errorResponses(["MISSING_API_KEY", "INVALID_API_KEY", "INTERNAL_SERVER_ERROR", "SERVICE_UNAVAILABLE"]),
    "405": METHOD_NOT_ALLOWED,
  },
};

/**
 * A request body lists what a client writes: the properties its schema marks readOnly (the
 * server's own, which may be sent back unchanged, docs/api.md) are left out, since generators
 * (openapi-sampler's defaults, for one) put every listed property in the bodies they build.
 */
function withoutReadOnlyProperties(operation: OperationObject): void {
  const schema = (operation.requestBody as { content?: Record<string, { schema?: SchemaObject }> } | undefined)?.content?.["application/json"]?.schema;
  const properties = schema?.properties ?? {};
  const readOnly = Object.keys(properties).filter((name) => (properties[name] as SchemaObject).readOnly);
  for (const name of readOnly) delete properties[name];
  if (schema?.required) schema.required = schema.required.filter((name) => !readOnly.includes(name));
}

/**
 * A JSON request body carries one complete example, at its media type, made of its properties'
 * examples (all valid together: docs/api.md, The contract), and a property whose schema is an
 * `anyOf` (a value or null) carries its example in the branch it belongs to as well. Generators
 * build a request from the media type's example when there is one; an example beside an `anyOf`
 * they read as no branch's, and fake a value from the branch's pattern instead (Postman's converter,
 * as Portman runs it: a publishAt centuries ago), which the API rightly refuses with a 400.
 */
function withRequestBodyExample(operation: OperationObject): void {
  const media = (operation.requestBody as { content?: Record<string, MediaTypeObject> } | undefined)?.content?.["application/json"];
  const properties = (media?.schema as SchemaObject | undefined)?.properties;
  if (!media || !properties) return;
  const example: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties) as [string, SchemaObject][]) {
    if (!("example" in property)) continue;
    example[name] = property.example;
    const branch = property.anyOf?.find((candidate) => ((candidate as SchemaObject).type === "null") === (property.example === null));
    if (branch) (branch as SchemaObject).example = property.example;
  }
  media.example = example;
}

/** The component schemas some $ref of the document names: the generator's defaults no response uses are dropped. */
function referencedSchemas(document: OpenAPIObject, schemas: Record<string, SchemaObject | ReferenceObject>): Record<string, SchemaObject | ReferenceObject> {
  const used = new Set<string>();
  const pending = [JSON.stringify(document.paths)];
  while (pending.length > 0) {
    for (const [, name] of pending.pop()!.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (used.has(name!) || !(name! in schemas)) continue;
      used.add(name!);
      pending.push(JSON.stringify(schemas[name!]));
    }
  }
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
}

/**
 * An image upload's body as /api/v1 reads it (src/server/api/rest/image-body.ts): the file itself
 * under its media type, or a multipart form with a `file` part. trpc-to-openapi can describe neither.
 */
function describeImageBody(operation: OperationObject): void {
  const file: SchemaObject = { type: "string", format: "binary", contentMediaType: "application/octet-stream" };
  operation.requestBody = {
    required: true,
    description: `The image, JPEG, PNG, WebP, AVIF or GIF (told by its content), at most ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`,
    content: {
      ...Object.fromEntries(IMAGE_FORMATS.map((format) => [contentTypeOf(format), { schema: { ...file, contentMediaType: contentTypeOf(format) } }])),
      "multipart/form-data": {
        schema: { type: "object", required: ["file"], properties: { file: { ...file, description: "The image file" } } },
        encoding: { file: { contentType: IMAGE_FORMATS.map(contentTypeOf).join(", ") } },
      },
    },
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
  document.info = {
    ...document.info,
    license: { name: "MIT", identifier: "MIT" },
    contact: { name: "Blog Management API support" },
  };
  for (const route of REST_ROUTES) {
    const operation = document.paths?.[route.template]?.[route.method.toLowerCase() as "get"] as Operation | undefined;
    if (!operation) continue;
    describeOperation(operation, route);
    withoutReadOnlyProperties(operation as OperationObject);
    withRequestBodyExample(operation as OperationObject);
    if (route.rawBody === "image") describeImageBody(operation as OperationObject);
  }
  document.paths = { ...document.paths, [RATE_LIMIT_PATH]: { get: RATE_LIMIT_OPERATION } };
  document.components = {
    ...document.components,
    schemas: referencedSchemas(document, { ...document.components?.schemas, ErrorEnvelope: ERROR_ENVELOPE_SCHEMA }),
    headers: Object.fromEntries(Object.entries(HEADERS).map(([name, header]) => [headerComponentName(name as HeaderName), header])),
    parameters: PARAMETERS,
  };
  return document;
}

let document: OpenAPIObject | undefined;

/** The OpenAPI document of /api/v1, generated once from the procedures, its server at `serverUrl`. */
export function openApiDocument(serverUrl: string): OpenAPIObject {
  document ??= buildDocument();
  return { ...document, servers: [{ url: serverUrl }] };
}
