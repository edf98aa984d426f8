"use client";

/**
 * The dashboard's tRPC client: a typed vanilla client of the app router (served at /api/trpc)
 * used inside TanStack Query hooks. @trpc/tanstack-react-query has no release matching
 * @trpc/server 11.25 yet, so queries are written as `useQuery({queryKey, queryFn: () => api...})`,
 * their keys from ./query-keys.ts.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpLink, splitLink, TRPCClientError, type TRPCLink } from "@trpc/client";
import { observable } from "@trpc/server/observable";
import { useState, type ReactNode } from "react";
import { MAX_BATCH_CALLS } from "~/shared/dashboard-limits";
import type { AppRouter } from "~/server/api/root";

/**
 * A call's context for a conditional write (docs/api.md, conditional requests): `ifMatch` is
 * sent as the If-Match header, and `onEntityTag` is handed the ETag of the answer. Such calls go
 * alone, as the server tags only a lone answer.
 */
interface EntityTagContext {
  ifMatch?: string;
  onEntityTag?: (tag: string | null) => void;
  /** Sent alone, to the procedure's own path: a call whose body may exceed a batch's limit (src/shared/dashboard-limits.ts). */
  alone?: true;
}

const goesAlone = (context: EntityTagContext) => context.alone || context.ifMatch !== undefined || context.onEntityTag !== undefined;

/** Hands a successful answer's ETag to the call's `onEntityTag`. */
const entityTagLink: TRPCLink<AppRouter> = () => ({ op, next }) =>
  observable((observer) =>
    next(op).subscribe({
      next(value) {
        const response = (value.context as { response?: Response } | undefined)?.response;
        (op.context as EntityTagContext).onEntityTag?.(response?.headers.get("ETag") ?? null);
        observer.next(value);
      },
      error: (error) => observer.error(error),
      complete: () => observer.complete(),
    }),
  );

export const api = createTRPCClient<AppRouter>({
  links: [
    entityTagLink,
    splitLink({
      condition: (op) => goesAlone(op.context as EntityTagContext),
      true: httpLink({
        url: "/api/trpc",
        headers: ({ op }): Record<string, string> => {
          const { ifMatch } = op.context as EntityTagContext;
          return ifMatch ? { "If-Match": ifMatch } : {};
        },
      }),
      // The server refuses larger batches.
      false: httpBatchLink({ url: "/api/trpc", maxItems: MAX_BATCH_CALLS }),
    }),
  ],
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
    // No answer of ours: the network failed ("Failed to fetch") or something else answered (a proxy's HTML page).
    if (!data) return "The server could not be reached. Check your connection and try again.";
    if (data.code === "UNAUTHORIZED") return "Your session has ended: sign in again.";
    if (data.code === "NOT_FOUND") return "Not found: it may have been deleted, or it belongs to another account.";
    if (data.httpStatus !== undefined && data.httpStatus >= 500) {
      return `${error.message}: please try again, and if it keeps failing, quote request id ${data.requestId}.`;
    }
    return data.details ?? error.message;
  }
  return error instanceof Error ? error.message : "Something went wrong";
}

/** The request id of a failed call, to quote: from the error's data, else from the answer's header. */
export function requestIdOf(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const fromData = (error.data as { requestId?: string } | undefined)?.requestId;
  const response = (error.meta as { response?: Response } | undefined)?.response;
  return fromData ?? response?.headers.get("X-Request-Id") ?? undefined;
}

/** Whether a deletion was refused because blogs use the image (IMAGE_IN_USE, 409). */
export function isImageInUse(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as { apiCode?: string } | undefined)?.apiCode === "IMAGE_IN_USE";
}

/** Whether a failed write was refused because the blog changed since it was read (If-Match, 412). */
export function isPreconditionFailed(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as { apiCode?: string } | undefined)?.apiCode === "PRECONDITION_FAILED";
}

/**
 * A refusal's message under the field it is about (the error's data.field, src/server/api/trpc.ts,
 * never read from the message), or under the form when it is about none of `fields`.
 */
export function fieldErrors<F extends string>(error: unknown, fields: readonly F[]): Partial<Record<F | "form", string>> {
  const message = errorMessage(error);
  const field = error instanceof TRPCClientError ? fields.find((f) => f === (error.data as { field?: string } | undefined)?.field) : undefined;
  const errors: Partial<Record<F | "form", string>> = {};
  errors[field ?? "form"] = message;
  return errors;
}
