"use client";

import { useSyncExternalStore } from "react";

/** Tailwind's lg breakpoint: from here a page has room for a side panel. */
const WIDE_SCREEN = "(min-width: 1024px)";

const subscribe = (onChange: () => void) => {
  const query = window.matchMedia(WIDE_SCREEN);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
};

/** Whether the window is at least 1024 px wide (lg), followed as it is resized; the server renders the wide layout. */
export function useWideScreen(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(WIDE_SCREEN).matches, () => true);
}
