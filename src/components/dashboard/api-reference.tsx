"use client";

import "@scalar/api-reference-react/style.css";
import dynamic from "next/dynamic";
import { Skeleton } from "~/components/ui/card";

// Scalar renders in the browser only (it is a Vue app inside a React wrapper).
const ApiReferenceReact = dynamic(() => import("@scalar/api-reference-react").then((m) => m.ApiReferenceReact), {
  ssr: false,
  loading: () => <Skeleton className="h-[70vh] w-full" />,
});

/**
 * Interactive documentation of /api/v1, from the OpenAPI document this server generates (its
 * `servers` entry is the configured public origin, else relative to the document, so "Try it"
 * calls the real API). Everything comes from npm: no fonts, scripts or proxies are loaded from
 * elsewhere.
 */
export function ApiReference() {
  return (
    <div className="overflow-hidden rounded-lg border border-slate-200 bg-white" data-testid="api-reference">
      <ApiReferenceReact
        configuration={{
          url: "/api/v1/openapi.json",
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
