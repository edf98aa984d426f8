type Parameter = { name?: string; required?: boolean; description?: string; example?: unknown; schema?: { example?: unknown } };
export type OpenApiDocument = { paths?: Record<string, Record<string, { parameters?: Parameter[] }>> };

/**
 * The document as "Try it" should read it: Scalar sends every optional parameter that has an
 * example, filled with it (a list of blogs `from`/`to` an example date comes back empty), so an
 * optional parameter's example moves into its description, where it is still shown.
 */
export function withoutOptionalExamples(document: OpenApiDocument): OpenApiDocument {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.required) continue;
        const example = parameter.example ?? parameter.schema?.example;
        if (example === undefined) continue;
        delete parameter.example;
        if (parameter.schema) delete parameter.schema.example;
        parameter.description = `${parameter.description ? `${parameter.description} ` : ""}Example: ${JSON.stringify(example)}.`;
      }
    }
  }
  return document;
}
