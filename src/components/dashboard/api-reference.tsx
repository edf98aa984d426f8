"use client";

import "@scalar/api-reference-react/style.css";
import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { Skeleton } from "~/components/ui/card";
import { withoutOptionalExamples, type OpenApiDocument } from "~/lib/try-it-document";
import { LoadError } from "./load-error";

// Scalar renders in the browser only (it is a Vue app inside a React wrapper).
const ApiReferenceReact = dynamic(() => import("@scalar/api-reference-react").then((m) => m.ApiReferenceReact), {
  ssr: false,
  loading: () => <Skeleton className="h-[70vh] w-full" />,
});

async function fetchOpenApiDocument(): Promise<OpenApiDocument> {
  const response = await fetch("/api/v1/openapi.json").catch(() => null);
  if (!response?.ok) throw new Error("The API's description could not be fetched. Check your connection and try again.");
  return withoutOptionalExamples((await response.json()) as OpenApiDocument);
}

/**
 * Scalar's copy buttons on code blocks have no accessible name: each gets one as it appears
 * (a ref callback on the wrapper; the observer stops when React detaches it).
 */
function nameCopyButtons(wrapper: HTMLDivElement | null): (() => void) | undefined {
  if (!wrapper) return undefined;
  const name = () => {
    for (const button of wrapper.querySelectorAll<HTMLButtonElement>("button.scalar-code-copy:not([aria-label])")) button.setAttribute("aria-label", "Copy code");
  };
  name();
  const observer = new MutationObserver(name);
  observer.observe(wrapper, { childList: true, subtree: true });
  return () => observer.disconnect();
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
    <div ref={nameCopyButtons} className="api-reference overflow-hidden rounded-lg border border-slate-200 bg-white" data-testid="api-reference">
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
          // The dashboard is light; the colours of globals.css are checked for this mode.
          forceDarkModeState: "light",
          hideDarkModeToggle: true,
        }}
      />
    </div>
  );
}
