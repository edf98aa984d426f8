"use client";

import "@scalar/api-reference-react/style.css";
import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { Skeleton } from "~/components/ui/card";
import { LoadError } from "./load-error";

// Scalar renders in the browser only (it is a Vue app inside a React wrapper).
const ApiReferenceReact = dynamic(() => import("@scalar/api-reference-react").then((m) => m.ApiReferenceReact), {
  ssr: false,
  loading: () => <Skeleton className="h-[70vh] w-full" />,
});

type Parameter = { required?: boolean; description?: string; example?: unknown; schema?: { example?: unknown } };
type OpenApiDocument = { paths?: Record<string, Record<string, { parameters?: Parameter[] }>> };

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

async function fetchOpenApiDocument(): Promise<OpenApiDocument> {
  const response = await fetch("/api/v1/openapi.json").catch(() => null);
  if (!response?.ok) throw new Error("The API's description could not be fetched. Check your connection and try again.");
  return withoutOptionalExamples((await response.json()) as OpenApiDocument);
}

/**
 * Interactive documentation of /api/v1, from the OpenAPI document this server generates (its
 * `servers` entry is the configured public origin, else a path on this one, so "Try it" calls
 * the real API). Everything comes from npm: no fonts, scripts or proxies are loaded from elsewhere.
 */
export function ApiReference() {
  const document = useQuery({ queryKey: ["openapi.json"], queryFn: fetchOpenApiDocument, staleTime: Infinity });
  if (document.error) return <LoadError what="the API reference" error={document.error} onRetry={() => void document.refetch()} retrying={document.isFetching} />;
  if (!document.data) return <Skeleton className="h-[70vh] w-full" />;
  return (
    <div className="overflow-hidden rounded-lg border border-slate-200 bg-white" data-testid="api-reference">
      <ApiReferenceReact
        configuration={{
          content: document.data,
          withDefaultFonts: false,
          telemetry: false,
          hideDownloadButton: false,
          agent: { disabled: true },
          mcp: { disabled: true },
          layout: "modern",
          showDeveloperTools: "never",
          theme: "default",
        }}
      />
    </div>
  );
}
