import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { CLIENT_DIR, typescriptClientFiles } from "../../scripts/lib/typescript-client";
import { MAX_IDEMPOTENCY_KEY_LENGTH } from "~/server/api/idempotency";
import { createBlogInput, listBlogsInput, READ_ONLY_FIELDS, updateBlogInput, WRITABLE_FIELDS } from "~/server/api/routers/blogs/schemas";
import { createSubscriberInput } from "~/server/api/routers/subscribers/schemas";
import { BLOG_CURSOR_MAX_LENGTH, BLOG_CURSOR_PATTERN } from "~/server/blogs/blog-cursor";

/**
 * The OpenAPI document as a contract generated clients can trust (docs/typescript-client.md): the
 * committed client is the one the code generates, the document passes Redocly's recommended lint with
 * nothing to say, and every limit the server enforces on a field is one the document states.
 */

const committed = (name: string) => readFileSync(path.join(CLIENT_DIR, name), "utf8");
const document = JSON.parse(committed("openapi.json"));
const ajv = new Ajv2020({ strict: false });

describe("the committed TypeScript client", () => {
  it("is what `npm run client:generate` writes from the code today", async () => {
    const generated = await typescriptClientFiles();
    for (const [name, text] of Object.entries(generated)) {
      expect(committed(name) === text, `${CLIENT_DIR}/${name} is stale: run npm run client:generate`).toBe(true);
    }
  });
});

describe("the OpenAPI document", () => {
  it("passes `redocly lint` (recommended rules, redocly.yaml) with no error and no warning", () => {
    const lint = spawnSync(process.execPath, ["node_modules/@redocly/cli/bin/cli.js", "lint", path.join(CLIENT_DIR, "openapi.json"), "--format=json"], {
      encoding: "utf8",
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    });
    const report = JSON.parse(lint.stdout);
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(lint.status).toBe(0);
  });

  it("gives every JSON request body a complete example its schema and the server accept, its anyOf branches theirs", () => {
    const update = updateBlogInput.omit({ blogId: true });
    const inputs: Record<string, z.ZodType> = { "post /blogs": createBlogInput, "put /blogs/{blogId}": update, "patch /blogs/{blogId}": update, "post /subscribers": createSubscriberInput };
    const bodies = Object.entries<any>(document.paths).flatMap(([template, item]) =>
      Object.entries<any>(item).flatMap(([method, operation]) => {
        const media = operation.requestBody?.content?.["application/json"];
        const label = `${method} ${template}`;
        return media ? [{ label, media, enforced: inputs[label]! }] : [];
      }),
    );
    expect(bodies.map(({ label }) => label)).toEqual(Object.keys(inputs));
    for (const { label, media, enforced } of bodies) {
      expect(Object.keys(media.example ?? {}).sort(), label).toEqual(Object.keys(media.schema.properties).sort());
      const validate = addFormats(new Ajv2020({ strict: false })).compile(media.schema);
      expect(validate(media.example), `${label}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(enforced.safeParse(media.example).error, label).toBeUndefined();
      for (const [name, property] of Object.entries<any>(media.schema.properties).filter(([, property]) => property.anyOf)) {
        expect(property.anyOf.map((branch: any) => branch.example), `${label} ${name}`).toContain(property.example);
      }
    }
  });

  const body = (template: string, method: string) => document.paths[template][method].requestBody.content["application/json"].schema;
  const created = body("/blogs", "post");
  const updates = [body("/blogs/{blogId}", "put"), body("/blogs/{blogId}", "patch")];
  const query = Object.fromEntries(document.paths["/blogs"].get.parameters.map((p: any) => [p.name, p.schema]));

  /** Strings at and around every length limit, bare and padded with whitespace, and values of other types. */
  const lengths = [0, 1, 2, 99, 100, 101, 199, 200, 201, 202, 499, 500, 501, 999, 1000, 1001, 500_000, 500_001];
  const probes: unknown[] = [
    ...lengths.flatMap((n) => ["a".repeat(n), " ".repeat(n), ` ${"a".repeat(n)} `, `\t${"a".repeat(Math.max(0, n - 2))}\n`]),
    "Bad Slug", "a--b", "-a", "a-", "my-first-post", "UPPER", "ünï", 7, 1.5, true, null, [], {},
  ];

  /** The document's schema accepts exactly what the server's does, for each probe. */
  function expectSameRule(field: string, documented: object, enforced: z.ZodType, values: unknown[] = probes) {
    const validate = ajv.compile(documented);
    const disagreements = values.filter((value) => validate(value) !== enforced.safeParse(value).success);
    expect(disagreements.map((value) => JSON.stringify(value)?.slice(0, 40)), field).toEqual([]);
  }

  const isWritable = (field: string) => (WRITABLE_FIELDS as readonly string[]).includes(field);

  it("states every limit the server enforces on a blog's writable fields, for create and for update", () => {
    for (const [field, enforced] of Object.entries(createBlogInput.shape)) {
      if (isWritable(field)) expectSameRule(`create ${field}`, created.properties[field], enforced);
    }
    for (const update of updates) {
      for (const [field, enforced] of Object.entries(updateBlogInput.shape)) {
        if (isWritable(field)) expectSameRule(`update ${field}`, update.properties[field], enforced);
      }
      expect(update.properties.title).toEqual(created.properties.title);
    }
    expect(created.required).toEqual(["title"]);
    expect(created.properties.title.description).toContain("after trimming");
  });

  it("lists only the writable fields in request bodies; the read-only ones the server checks when sent back are marked in the Blog", () => {
    expect(Object.keys(createBlogInput.shape).filter((field) => !isWritable(field)).sort()).toEqual([...READ_ONLY_FIELDS].sort());
    for (const schema of [created, ...updates]) expect(Object.keys(schema.properties).sort()).toEqual([...WRITABLE_FIELDS].sort());
    const blog = document.components.schemas.Blog.properties;
    for (const field of READ_ONLY_FIELDS) expect(blog[field].readOnly, field).toBe(true);
    for (const field of WRITABLE_FIELDS) expect(blog[field].readOnly, field).toBeUndefined();
    for (const field of ["createdAt", "updatedAt"]) expect(blog[field].format, field).toBe("date-time");
  });

  it("states the limits of the list's query parameters and of the Idempotency-Key header", () => {
    const numbers = [-1, 0, 1, 1.5, 2, 49, 50, 51, 999_999_999, 1_000_000_000];
    expectSameRule("page", query.page, listBlogsInput.shape.page, numbers);
    expectSameRule("limit", query.limit, listBlogsInput.shape.limit, numbers);
    expectSameRule("q", query.q, listBlogsInput.shape.q);
    expect(query.q.description).toContain("after trimming");
    expect(query.cursor).toMatchObject({ minLength: 1, maxLength: BLOG_CURSOR_MAX_LENGTH, pattern: BLOG_CURSOR_PATTERN.source });

    const idempotencyKey = document.paths["/blogs"].post.parameters.find((parameter: { name: string }) => parameter.name === "Idempotency-Key");
    expect(idempotencyKey.description).toContain("after trimming");
    const keys = probes.filter((value): value is string => typeof value === "string").concat(" ".repeat(3) + "k".repeat(MAX_IDEMPOTENCY_KEY_LENGTH) + " ");
    const pattern = new RegExp(idempotencyKey.schema.pattern);
    expect(keys.filter((key) => pattern.test(key) !== key.trim().length <= MAX_IDEMPOTENCY_KEY_LENGTH).map((key) => key.length)).toEqual([]);
  });
});
