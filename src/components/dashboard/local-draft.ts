"use client";

import { useEffect, useState, useSyncExternalStore } from "react";

/** Unsaved form values kept in this browser, and when they were kept. */
export interface LocalDraft<T> {
  values: T;
  keptAt: string;
}

const neverChanges = () => () => {};

/** Waits between keystrokes before the values are written: one write per pause, not per key. */
const WRITE_DELAY_MS = 400;

function read<T>(key: string): LocalDraft<T> | null {
  try {
    const stored = window.localStorage.getItem(key);
    return stored ? (JSON.parse(stored) as LocalDraft<T>) : null;
  } catch {
    // Storage off (private mode, quota) or a value of another version: nothing to offer.
    return null;
  }
}

function write(key: string, draft: LocalDraft<unknown> | null): void {
  try {
    if (draft) window.localStorage.setItem(key, JSON.stringify(draft));
    else window.localStorage.removeItem(key);
  } catch {
    // The editor keeps working without storage; only the crash safety net is lost.
  }
}

/**
 * The editor keeps work (docs/api.md, publishing): while the form holds unsaved changes they are
 * kept in localStorage under `key`, so a crash or a closed tab loses nothing; on the next visit
 * they are offered back (`offer`) until the owner restores or discards them; once the form is
 * saved (no longer `dirty`) they are dropped.
 */
export function useLocalDraft<T>(key: string, values: T, dirty: boolean, differsFromLoaded: (draft: T) => boolean) {
  // Storage exists only in the browser: the server renders no offer, and hydration keeps that
  // until the client snapshot (true) takes over.
  const inBrowser = useSyncExternalStore(neverChanges, () => true, () => false);
  const [offer, setOffer] = useState<LocalDraft<T> | null>(() => {
    if (typeof window === "undefined") return null;
    const stored = read<T>(key);
    return stored && differsFromLoaded(stored.values) ? stored : null;
  });

  useEffect(() => {
    // Nothing is written over a kept draft until the owner has restored or discarded it.
    if (!inBrowser || offer) return;
    const timer = setTimeout(() => write(key, dirty ? { values, keptAt: new Date().toISOString() } : null), WRITE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key, values, dirty, inBrowser, offer]);

  return {
    offer: inBrowser ? offer : null,
    /** The kept values, for the form to take; they stay kept until saved. */
    restore: () => {
      setOffer(null);
      return offer?.values;
    },
    discard: () => {
      write(key, null);
      setOffer(null);
    },
  };
}
