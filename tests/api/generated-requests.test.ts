import { sample } from "openapi-sampler";
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, createTestAccount } from "../support/api";
import { servedDocument, type ServedDocument } from "../support/served-document";

/**
 * The served OpenAPI document as a generated client sees it (docs/api.md, the contract): every
 * operation's request is built from the document alone, as Postman, Portman and other generators
 * build one: bodies sampled from the request schema by openapi-sampler with its default options
 * (examples used where given), parameters from their examples or schemas. Each must get its
 * documented success, with a body the document describes. Only the ids in paths come from an
 * earlier answer, as a contract suite chains them (the created blog's id and slug).
 */

const DOCUMENT_ID = "https://blogmgr.test/generated-requests/openapi.json";

interface Operation {
  method: string;
  template: string;
  definition: any;
}

let served: ServedDocument;
let doc: any;

beforeAll(async () => {
  served = await servedDocument(DOCUMENT_ID);
  doc = served.doc;
});

const resolve = (node: any) => served.resolve(node);

/** Every operation, creates first and deletes last, as a suite orders them so that ids exist. */
function operations(): Operation[] {
  const all = Object.entries<any>(doc.paths).flatMap(([template, item]) =>
    Object.entries<any>(item)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, definition]) => ({ method: method.toUpperCase(), template, definition })),
  );
  // Creates first, deletes last; an action on an object (a restore) after the reads that find it.
  const rank = (op: Operation) => (op.method === "POST" && !op.template.includes("{") ? 0 : op.method === "DELETE" ? 2 : 1);
  return all.sort((a, b) => rank(a) - rank(b));
}

/** A parameter's value as a generator picks it: its example, else a value sampled from its schema. */
function parameterValue(parameter: any): unknown {
  return parameter.example ?? parameter.schema?.example ?? sample(parameter.schema, {}, doc);
}

/** The documented success: the operation's lowest 2xx status. */
function documentedSuccess(op: Operation): number {
  return Math.min(...Object.keys(op.definition.responses).map(Number).filter((status) => status >= 200 && status < 300));
}

async function runSuite(key: string, parameters: "required" | "every"): Promise<{ label: string; status: number; expected: number; problem?: string }[]> {
  const apiKeyScheme = Object.values<any>(doc.components.securitySchemes).find((scheme) => scheme.type === "apiKey" && scheme.in === "header");
  const variables: Record<string, string> = {};
  const results = [];
  for (const op of operations()) {
    const params = (op.definition.parameters ?? []).map(resolve);
    const headers: Record<string, string> = { [apiKeyScheme.name]: key };
    // The document's server, relative to the server under test when it is (no BETTER_AUTH_URL here).
    const url = new URL(`${doc.servers?.[0]?.url ?? "/api/v1"}${op.template}`, apiBaseUrl());
    let path = url.pathname;
    for (const parameter of params) {
      if (parameter.in === "path") {
        path = path.replace(encodeURIComponent(`{${parameter.name}}`), encodeURIComponent(variables[parameter.name] ?? String(parameterValue(parameter))));
      } else if (parameter.required || parameters === "every") {
        const value = String(parameterValue(parameter));
        if (parameter.in === "query") url.searchParams.set(parameter.name, value);
        if (parameter.in === "header") headers[parameter.name] = value;
      }
    }
    url.pathname = path;
    const content = resolve(op.definition.requestBody)?.content?.["application/json"];
    if (content) headers["content-type"] = "application/json";
    const body = content ? JSON.stringify(sample(content.schema, {}, doc)) : undefined;
    const response = await fetch(url, { method: op.method, headers, body });
    const text = await response.text();
    const json = text ? JSON.parse(text) : null;
    const expected = documentedSuccess(op);
    const label = `${op.method} ${op.template} (${parameters} parameters) ${body ?? ""}`;
    let problem: string | undefined;
    if (response.status === expected) {
      const { valid, errors } = served.validateResponse(op.method, op.template, expected, json);
      if (!valid) problem = errors;
    } else {
      problem = text;
    }
    if (json?.data?.blog) Object.assign(variables, { blogId: json.data.blog.id, blogSlug: json.data.blog.blogSlug });
    if (json?.data?.revisions?.[0]) variables.revisionId = json.data.revisions[0].id;
    results.push({ label, status: response.status, expected, problem });
  }
  return results;
}

describe("requests generated from the served OpenAPI document", () => {
  it("samples bodies of the writable fields only, with openapi-sampler's default options", () => {
    const body = sample(resolve(doc.paths["/blogs"].post.requestBody).content["application/json"].schema, {}, doc) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["blogSlug", "content", "coverImage", "description", "isPublic", "publishAt", "seoDescription", "seoTitle", "tags", "title"]);
  });

  it.each(["required", "every"] as const)("get their documented success for every operation, with %s parameters", async (parameters) => {
    const account = await createTestAccount();
    const results = await runSuite(account.key, parameters);
    expect(results.length).toBe(operations().length);
    expect(results.filter((result) => result.problem)).toEqual([]);
    expect(results.map((result) => result.status)).toEqual(results.map((result) => result.expected));
  });
});
