import { TRPCClientError } from "@trpc/client";
import { api, errorMessage } from "~/trpc/react";

/** The owner's keys, as the keys page and the dashboard's expiry notice read them. */
export const KEYS_QUERY = { queryKey: ["keys.list"], queryFn: () => api.keys.list.query() };

/** The keys list's heading: where focus goes when an action removes the control that had it. */
export const KEYS_HEADING_ID = "keys-heading";

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
