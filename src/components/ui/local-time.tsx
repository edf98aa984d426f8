"use client";

import { useSyncExternalStore } from "react";
import { formatDateTime, formatMoment } from "~/lib/format";

const neverChanges = () => () => {};

/**
 * A moment in the owner's own time zone, the dashboard's one format (formatMoment), with UTC on
 * hover. The server knows no time zone: it renders UTC, saying so, which the browser replaces with
 * local time once hydrated. `seconds` where entries of a list could otherwise read alike.
 */
export function LocalTime({ iso, seconds = false }: { iso: string; seconds?: boolean }) {
  const local = useSyncExternalStore(
    neverChanges,
    () => formatMoment(iso, { seconds }),
    () => null,
  );
  return (
    <time dateTime={iso} title={formatDateTime(iso, { seconds: true })}>
      {local ?? formatDateTime(iso, { seconds })}
    </time>
  );
}
