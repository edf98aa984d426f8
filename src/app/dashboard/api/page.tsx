import type { Metadata } from "next";
import { headers } from "next/headers";
import { ApiReference } from "~/components/dashboard/api-reference";
import { PageHeader } from "~/components/dashboard/page-header";

export const metadata: Metadata = { title: "API reference" };

export default async function ApiReferencePage() {
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const protocol = h.get("x-forwarded-proto")?.split(",")[0] ?? "http";
  const baseUrl = `${protocol}://${host}/api/v1`;
  return (
    <>
      <PageHeader
        title="API reference"
        description={
          <>
            Base URL <code className="rounded bg-slate-100 px-1 font-mono" data-testid="api-base-url">{baseUrl}</code>. Send your key in the{" "}
            <code className="rounded bg-slate-100 px-1 font-mono">x-api-key</code> header. The document itself:{" "}
            <a href="/api/v1/openapi.json" className="font-medium text-indigo-700 underline">
              /api/v1/openapi.json
            </a>
            .
          </>
        }
      />
      <ApiReference />
    </>
  );
}
