import { convertV2 } from "openapi-to-postmanv2";
import { sample } from "openapi-sampler";
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, createTestAccount } from "../support/api";
import { servedDocument, type ServedDocument } from "../support/served-document";
import * as fixtures from "../images/fixtures";
import { zipOf } from "../imports/sources";

/**
 * The served OpenAPI document as a generated client sees it (docs/api.md, the contract): every
 * operation's request is built from the document alone, as Postman, Portman and other generators
 * build one: bodies sampled from the request schema by openapi-sampler with its default options
 * (examples used where given), parameters from their examples or schemas. Each must get its
 * documented success, with a body the document describes. Only the ids in paths come from an
 * earlier answer, as a contract suite chains them (the created blog's id and slug, the image's
 * id), and a file body is attached by the suite, as a collection attaches one (an image upload,
 * an export's).
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

/** The file a suite attaches to an import: a Markdown export of one post. */
async function exportForm(): Promise<FormData> {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await zipOf({ "_posts/2026-01-01-generated.md": "---\ntitle: Generated\n---\nHello.\n" }))]), "export.zip");
  return form;
}

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

/**
 * A parameter's value as a generator picks it: its example, else a value sampled from its schema.
 * An Idempotency-Key is fresh for each request, as a collection's `{{$guid}}` makes it: the one
 * example used for two different creates of one account would be the reuse the API refuses (409).
 */
function parameterValue(parameter: any): unknown {
  if (parameter.in === "header" && parameter.name === "Idempotency-Key") return crypto.randomUUID();
  return parameter.example ?? parameter.schema?.example ?? sample(parameter.schema, {}, doc);
}

/**
 * The documented success of a first call: 201 for an operation that documents it (it creates; an
 * upload of bytes already stored answers 200, a later call's), else the operation's lowest 2xx.
 */
function documentedSuccess(op: Operation): number {
  const successes = Object.keys(op.definition.responses).map(Number).filter((status) => status >= 200 && status < 300);
  return successes.includes(201) ? 201 : Math.min(...successes);
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
    const bodies = resolve(op.definition.requestBody)?.content;
    const content = bodies?.["application/json"];
    const file = bodies?.["image/png"] ? await fixtures.png() : undefined;
    // A form only (an export's upload): the suite attaches its file, fetch writes the boundary.
    const form = !content && !file && bodies?.["multipart/form-data"] ? await exportForm() : undefined;
    if (content || file) headers["content-type"] = content ? "application/json" : "image/png";
    const body = content ? JSON.stringify(sample(content.schema, {}, doc)) : (file ?? form);
    const response = await fetch(url, { method: op.method, headers, body });
    const text = await response.text();
    const json = text ? JSON.parse(text) : null;
    const expected = documentedSuccess(op);
    const label = `${op.method} ${op.template} (${parameters} parameters) ${file ? "an image" : form ? "an export" : (body ?? "")}`;
    let problem: string | undefined;
    if (response.status === expected) {
      const { valid, errors } = served.validateResponse(op.method, op.template, expected, json);
      if (!valid) problem = errors;
    } else {
      problem = text;
    }
    if (json?.data?.blog) Object.assign(variables, { blogId: json.data.blog.id, blogSlug: json.data.blog.blogSlug });
    if (json?.data?.revisions?.[0]) variables.revisionId = json.data.revisions[0].id;
    if (json?.data?.image) variables.imageId = json.data.image.id;
    if (json?.data?.subscriber) variables.subscriberId = json.data.subscriber.id;
    if (json?.data?.import) variables.importId = json.data.import.id;
    results.push({ label, status: response.status, expected, problem });
  }
  return results;
}

describe("requests generated from the served OpenAPI document", () => {
  it("samples bodies of the writable fields only, with openapi-sampler's default options", () => {
    const body = sample(resolve(doc.paths["/blogs"].post.requestBody).content["application/json"].schema, {}, doc) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["authors", "blogSlug", "content", "coverImage", "description", "emailSubscribers", "isPublic", "publishAt", "seoDescription", "seoTitle", "tags", "title"]);
  });

  it.each(["required", "every"] as const)("get their documented success for every operation, with %s parameters", async (parameters) => {
    const account = await createTestAccount();
    const results = await runSuite(account.key, parameters);
    expect(results.length).toBe(operations().length);
    expect(results.filter((result) => result.problem)).toEqual([]);
    expect(results.map((result) => result.status)).toEqual(results.map((result) => result.expected));
  });
});

/**
 * The same document through another generator: Postman's converter (openapi-to-postmanv2) with the
 * options Portman gives it (requests from the document's examples, folders by tag). Its collection
 * is sent as Newman would run it, in the suite's order: only the collection's variables are filled
 * (the base URL, the key, and the ids in paths from earlier answers) and a file attached to the
 * upload; every body, query and header is the generated one. No answer may refuse the generated
 * input (400, 422), and each is the operation's documented success: the document's examples must be
 * requests the API accepts (docs/api.md, The contract).
 */
describe("a Postman collection converted from the served document, as Portman converts it", () => {
  interface PostmanRequest {
    method: string;
    url: { path: string[]; query?: { key: string; value: string; disabled?: boolean }[] };
    header?: { key: string; value: string; disabled?: boolean }[];
    body?: { mode: string; raw?: string };
    auth?: { type: string; apikey?: { key: string; value: string }[] };
  }
  type PostmanItem = { item?: PostmanItem[]; request?: PostmanRequest };

  async function convertedRequests(): Promise<PostmanRequest[]> {
    const collection = await new Promise<{ item: PostmanItem[]; variable?: { key: string; value: string }[] }>((resolvePromise, reject) =>
      convertV2({ type: "json", data: doc }, { folderStrategy: "Tags", parametersResolution: "Example" }, (error, result) => {
        const collection = result?.output?.[0]?.data;
        if (error || !result?.result || !collection) reject(error ?? new Error(String(result?.reason)));
        else resolvePromise(collection as never);
      }),
    );
    const requests: PostmanRequest[] = [];
    const walk = (node: PostmanItem) => (node.item ? node.item.forEach(walk) : node.request && requests.push(node.request));
    collection.item.forEach(walk);
    return requests;
  }

  it("sends every generated request, and none is refused for its input", async () => {
    const account = await createTestAccount();
    const requests = await convertedRequests();
    const templateOf = (request: PostmanRequest) => `/${request.url.path.map((segment) => segment.replace(/^:(.+)$/, "{$1}")).join("/")}`;
    const rank = (request: PostmanRequest) => (request.method === "POST" && !templateOf(request).includes("{") ? 0 : request.method === "DELETE" ? 2 : 1);
    expect(requests.map((request) => `${request.method} ${templateOf(request)}`).sort()).toEqual(operations().map((op) => `${op.method} ${op.template}`).sort());

    const variables: Record<string, string> = { apiKey: account.key };
    const fill = (text: string) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => variables[name] ?? `{{${name}}}`);
    const results = [];
    for (const request of requests.sort((a, b) => rank(a) - rank(b))) {
      const path = request.url.path.map((segment) => encodeURIComponent(segment.startsWith(":") ? variables[segment.slice(1)]! : segment)).join("/");
      const url = new URL(`${doc.servers[0].url}/${path}`, apiBaseUrl());
      for (const { key, value, disabled } of request.url.query ?? []) if (!disabled) url.searchParams.append(key, fill(value));
      const headers = Object.fromEntries((request.header ?? []).filter((header) => !header.disabled).map(({ key, value }) => [key, fill(value)]));
      const apiKey = Object.fromEntries((request.auth?.apikey ?? []).map(({ key, value }) => [key, value]));
      if (request.auth?.type === "apikey" && apiKey.in === "header") headers[apiKey.key!] = fill(apiKey.value!);
      const isFile = !/json/.test(headers["Content-Type"] ?? "application/json");
      const isForm = /multipart\/form-data/.test(headers["Content-Type"] ?? "") || request.body?.mode === "formdata";
      // A form's file is attached as Newman attaches one; fetch writes the boundary.
      if (isForm) delete headers["Content-Type"];
      const body = isForm ? await exportForm() : isFile ? new Uint8Array(await fixtures.png()) : request.body?.raw && fill(request.body.raw);
      const response = await fetch(url, { method: request.method, headers, body });
      const text = await response.text();
      const json = text ? JSON.parse(text) : null;
      if (json?.data?.blog) Object.assign(variables, { blogId: json.data.blog.id, blogSlug: json.data.blog.blogSlug });
      if (json?.data?.revisions?.[0]) variables.revisionId = json.data.revisions[0].id;
      if (json?.data?.image) variables.imageId = json.data.image.id;
      if (json?.data?.subscriber) variables.subscriberId = json.data.subscriber.id;
      if (json?.data?.import) variables.importId = json.data.import.id;
      results.push({ request: `${request.method} ${templateOf(request)} ${isForm ? "an export" : isFile ? "an image" : (body ?? "")}`, status: response.status, answer: text });
    }
    expect(results.filter((result) => result.status === 400 || result.status === 422)).toEqual([]);
    // Nor refused for anything else: each gets its documented success.
    expect(results.map(({ request, status }) => `${request.split(" ", 2).join(" ")} ${status}`)).toEqual(
      results.map(({ request }) => `${request.split(" ", 2).join(" ")} ${documentedSuccess(operations().find((op) => request.startsWith(`${op.method} ${op.template} `))!)}`),
    );
  });
});
