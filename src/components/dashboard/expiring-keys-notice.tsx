"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment } from "react";
import { LocalTime } from "~/components/ui/local-time";
import { KEYS_QUERY } from "./keys-client";

/** On the dashboard's first page: the active keys that expire within 7 days, if any. */
export function ExpiringKeysNotice() {
  const keys = useQuery(KEYS_QUERY);
  const expiring = keys.data?.filter((key) => key.expiringSoon) ?? [];
  if (expiring.length === 0) return null;
  return (
    <div role="status" className="mb-6 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      <p className="font-medium">
        {expiring.length === 1 ? "An API key expires" : `${expiring.length} API keys expire`} within 7 days:{" "}
        {expiring.map((key, i) => (
          <Fragment key={key.id}>
            {i > 0 && ", "}“{key.name}” on {key.expiresAt && <LocalTime iso={key.expiresAt} />}
          </Fragment>
        ))}
        .{" "}
        <Link href="/dashboard/keys" className="underline">
          Roll or replace {expiring.length === 1 ? "it" : "them"}
        </Link>
      </p>
    </div>
  );
}
