"use client";

import { useSyncExternalStore } from "react";
import { formatDate, formatDateTime } from "~/lib/format";

const LOCAL_FORMAT: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" };
const neverChanges = () => () => {};

/**
 * A moment in the owner's own time zone, with UTC on hover. The server knows no time zone: it
 * renders the UTC date, which the browser replaces with local time once hydrated.
 */
export function LocalTime({ iso }: { iso: string }) {
  const local = useSyncExternalStore(
    neverChanges,
    () => new Date(iso).toLocaleString(undefined, LOCAL_FORMAT),
    () => null,
  );
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {local ?? formatDate(iso)}
    </time>
  );
}
