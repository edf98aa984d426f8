import type { useQueryClient } from "@tanstack/react-query";
import type { SubscriberStatus } from "~/shared/subscribers";
import { trpc } from "~/trpc/query-keys";

/** Every subscriber query (counts and pages): what a change makes stale. */
export const refreshSubscribers = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all([trpc.subscribers.list.queryKey(), trpc.subscribers.counts.queryKey()].map((queryKey) => queryClient.invalidateQueries({ queryKey })));

export const STATUS_LABELS: Record<SubscriberStatus, string> = { pending: "Pending", active: "Active", unsubscribed: "Unsubscribed", bounced: "Bounced" };
