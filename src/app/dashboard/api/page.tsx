import type { Metadata } from "next";
import { ApiBaseUrl } from "~/components/dashboard/api-base-url";
import { ApiReference } from "~/components/dashboard/api-reference";
import { PageHeader } from "~/components/dashboard/page-header";
import { publicApiBaseUrl } from "@blogmgr/server";

export const metadata: Metadata = { title: "API reference" };

export default function ApiReferencePage() {
  return (
    <>
      <PageHeader
        title="API reference"
        description={
          <>
            Base URL <ApiBaseUrl baseUrl={publicApiBaseUrl} />. Send your key in the{" "}
            <code className="rounded bg-slate-100 px-1 font-mono">x-api-key</code> header. The document itself:{" "}
            <a href="/api/v1/openapi.json" className="font-medium text-indigo-700 underline">
              /api/v1/openapi.json
            </a>
            . TypeScript: a typed client (openapi-typescript types for openapi-fetch) is generated from it into{" "}
            <code className="rounded bg-slate-100 px-1 font-mono">clients/typescript</code> of the repository, with an example
            (docs/typescript-client.md); to generate your own, give the document&apos;s URL to{" "}
            <code className="rounded bg-slate-100 px-1 font-mono">npx openapi-typescript</code>.
          </>
        }
      />
      <ApiReference />
    </>
  );
}
