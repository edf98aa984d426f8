import { api } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";

/** The owner's keys, as the keys page and the dashboard's expiry notice read them. */
export const KEYS_QUERY = { queryKey: trpc.keys.list.queryKey(), queryFn: () => api.keys.list.query() };

/** The keys list's heading: where focus goes when an action removes the control that had it. */
export const KEYS_HEADING_ID = "keys-heading";
