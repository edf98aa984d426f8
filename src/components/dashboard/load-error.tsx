"use client";

import { TRPCClientError } from "@trpc/client";
import { Button } from "~/components/ui/button";
import { errorMessage, requestIdOf } from "~/trpc/react";

/**
 * What a page shows instead of its data when loading it failed: a plain message (never the
 * browser's or a parser's raw text), the request id to quote when the server gave one, and Retry.
 */
export function LoadError({ what, error, onRetry, retrying }: { what: string; error: unknown; onRetry: () => void; retrying?: boolean }) {
  const requestId = requestIdOf(error);
  const serverFailed = error instanceof TRPCClientError && ((error.data as { httpStatus?: number } | undefined)?.httpStatus ?? 0) >= 500;
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-5 py-4 text-sm text-red-800" data-testid="load-error">
      <p className="font-medium">Couldn&apos;t load {what}.</p>
      <p className="mt-1">{serverFailed ? "Something went wrong on our side. Please try again." : errorMessage(error)}</p>
      {requestId && (
        <p className="mt-1 text-red-700">
          Request id: <code className="font-mono text-xs break-all select-all">{requestId}</code>
        </p>
      )}
      <Button variant="secondary" size="sm" className="mt-3" onClick={onRetry} loading={retrying}>
        Retry
      </Button>
    </div>
  );
}
