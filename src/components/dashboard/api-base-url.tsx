"use client";

import { useSyncExternalStore } from "react";

const subscribeToNothing = () => () => {};

/**
 * The API's base URL as the owner should call it: `baseUrl` when it is absolute (a configured
 * public origin), else under the origin this page was opened from, which the browser knows and a
 * forwarding header cannot change.
 */
export function ApiBaseUrl({ baseUrl }: { baseUrl: string }) {
  const origin = useSyncExternalStore(subscribeToNothing, () => window.location.origin, () => "");
  return (
    <code className="rounded bg-slate-100 px-1 font-mono" data-testid="api-base-url">
      {baseUrl.startsWith("/") ? origin + baseUrl : baseUrl}
    </code>
  );
}
