import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { call } from "./api";

/** The OpenAPI document the server under test serves, with a validator for the schemas in it. */
export interface ServedDocument {
  doc: any;
  /** The node a `$ref` points to (or the node itself). */
  resolve(node: any): any;
  /** Validates `value` against the response schema of `method template` with `status`. */
  validateResponse(method: string, template: string, status: number, value: unknown): { valid: boolean; errors: string };
  ajv: Ajv2020;
}

export async function servedDocument(id: string): Promise<ServedDocument> {
  const doc = (await call("/openapi.json")).body as any;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: id });
  const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");
  return {
    doc,
    ajv,
    resolve: (node) => (node?.$ref ? node.$ref.slice(2).split("/").reduce((at: any, part: string) => at[part.replaceAll("~1", "/").replaceAll("~0", "~")], doc) : node),
    validateResponse(method, template, status, value) {
      const validate = ajv.compile({ $ref: `${id}#/${pointer("paths", template, method.toLowerCase(), "responses", String(status), "content", "application/json", "schema")}` });
      const valid = validate(value);
      return { valid, errors: JSON.stringify(validate.errors) };
    },
  };
}
