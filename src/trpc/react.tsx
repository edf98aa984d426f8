"use client";

/**
 * The dashboard's tRPC client: a typed vanilla client of the app router (served at /api/trpc)
 * used inside TanStack Query hooks. @trpc/tanstack-react-query has no release matching
 * @trpc/server 11.25 yet, so queries are written as `useQuery({queryKey, queryFn: () => api...})`.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { useState, type ReactNode } from "react";
import { MAX_BATCH_CALLS } from "~/shared/dashboard-limits";
import type { AppRouter } from "~/server/api/root";

export const api = createTRPCClient<AppRouter>({
  // The server refuses larger batches.
  links: [httpBatchLink({ url: "/api/trpc", maxItems: MAX_BATCH_CALLS })],
});

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: false,
        // A missing session or blog won't appear by asking again.
        retry: (count, error) => !(error instanceof TRPCClientError && error.data?.httpStatus < 500) && count < 2,
      },
    },
  });
}

export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

/**
 * What to tell the owner about a failed call: the rule's details when there are any; for a failure
 * on our side, the server's generic message and the request id to quote.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError) {
    const data = error.data as { details?: string; httpStatus?: number; code?: string; requestId?: string } | undefined;
    if (data?.code === "UNAUTHORIZED") return "Your session has ended: sign in again.";
    if (data?.code === "NOT_FOUND") return "Not found: it may have been deleted, or it belongs to another account.";
    if (data?.httpStatus !== undefined && data.httpStatus >= 500) {
      return `${error.message}: please try again, and if it keeps failing, quote request id ${data.requestId}.`;
    }
    return data?.details ?? error.message;
  }
  return error instanceof Error ? error.message : "Something went wrong";
}

