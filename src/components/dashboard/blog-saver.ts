"use client";

import { useEffect, useRef, useState } from "react";
import { formatTimeOfDay } from "~/lib/format";
import type { BlogView } from "~/server/blogs/blog-view";
import { api, isPreconditionFailed } from "~/trpc/react";
import { differs, EMPTY, serverErrors, validate, valuesOf, type Errors, type Values } from "./blog-form-values";
import type { StatusChange } from "./publish-control";

/** The pause in typing after which a draft is saved. */
export const AUTOSAVE_DELAY_MS = 2000;

/**
 * Saves the editor's blog, one save at a time, each over the version the last one answered
 * (If-Match; a 412 opens the conflict dialog and stops autosaving until it is settled). While the
 * blog is not published its values are saved as the owner writes: AUTOSAVE_DELAY_MS after the
 * last change, at once on `flush` (the form losing focus) and when the page is hidden; a new blog
 * once it has a title, created as a draft, after which the address becomes the blog's own
 * (history.replaceState: the editor stays mounted, focus and caret where they were). A published
 * blog's live page never changes by itself: its edits wait for the owner's `save`. Every save of
 * one page names the same editing session, so the history keeps one revision for it (src/server/blogs/change-source.ts).
 */
export function useBlogSaver({
  blog,
  entityTag,
  values,
  onSaved,
  onCreated,
  onRefused,
}: {
  blog: BlogView | undefined;
  entityTag: string | null;
  values: Values;
  /** After each save: the blog as stored, its ETag, and the values that were sent. */
  onSaved: (blog: BlogView, entityTag: string | null, sent: Values) => void;
  onCreated: (blog: BlogView) => void;
  /** A refusal by field; `byOwner` when the owner asked for the save (else an autosave). */
  onRefused: (errors: Errors, byOwner: boolean) => void;
}) {
  const [saved, setSaved] = useState(blog);
  const [tag, setTag] = useState(entityTag);
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  const [saving, setSaving] = useState(0);
  const [ownerSaving, setOwnerSaving] = useState(0);
  const [conflict, setConflict] = useState(false);
  const [editSession] = useState(() => crypto.randomUUID());
  // The latest of each, for saves queued behind others and for listeners set up once.
  const latest = useRef({ saved: blog, tag: entityTag, values, conflict });
  useEffect(() => {
    latest.current = { ...latest.current, values, conflict };
  });
  const lastSent = useRef<Values | null>(blog ? valuesOf(blog) : null);
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  const adopt = (stored: BlogView, storedTag: string | null) => {
    latest.current = { ...latest.current, saved: stored, tag: storedTag };
    lastSent.current = valuesOf(stored);
    setSaved(stored);
    setTag(storedTag);
  };

  async function send(sent: Values, { change, overwrite, byOwner }: { change?: StatusChange; overwrite?: boolean; byOwner: boolean }): Promise<boolean> {
    const current = latest.current.saved;
    const { coverImage, blogSlug, authors, ...rest } = sent;
    // The cover only when changed: one deleted since the form loaded is already cleared, not to be sent back.
    const cover = coverImage === (current ? current.coverImage : EMPTY.coverImage) ? {} : { coverImage };
    // No authors chosen (a new blog): the server's default, the member writing it.
    const fields = { ...rest, ...cover, blogSlug: blogSlug || undefined, authors: authors.length > 0 ? authors : undefined, ...change, editSession };
    lastSent.current = sent;
    setSaving((n) => n + 1);
    if (byOwner) setOwnerSaving((n) => n + 1);
    try {
      let answeredTag: string | null = null;
      const onEntityTag = (answered: string | null) => (answeredTag = answered);
      const stored = current
        ? (await api.blogs.editor.update.mutate({ blogId: current.id, ...fields }, { context: { ifMatch: overwrite ? undefined : (latest.current.tag ?? undefined), onEntityTag } })).data.blog
        : (await api.blogs.editor.create.mutate(fields, { context: { onEntityTag } })).data.blog;
      adopt(stored, answeredTag);
      if (!current) {
        // No state of our own: Next's router then takes the new address as its current one, page kept.
        window.history.replaceState(null, "", `/dashboard/blogs/${stored.id}`);
        onCreated(stored);
      }
      setSavedAt(new Date());
      setConflict(false);
      onSaved(stored, answeredTag, sent);
      return true;
    } catch (error) {
      if (isPreconditionFailed(error)) setConflict(true);
      else onRefused(serverErrors(error), byOwner);
      return false;
    } finally {
      setSaving((n) => n - 1);
      if (byOwner) setOwnerSaving((n) => n - 1);
    }
  }

  /** Queued behind the saves in flight, so each goes over the version the previous one answered. */
  const enqueue = (work: () => Promise<boolean>): Promise<boolean> => {
    const done = queue.current.then(work);
    queue.current = done;
    return done;
  };

  /** Saves the values now unless nothing changed since the last save or they cannot be saved yet (autosave's rules). */
  const autosave = () =>
    void enqueue(async () => {
      const { saved: current, values: now, conflict: blocked } = latest.current;
      if (blocked || current?.status === "published") return false;
      if (lastSent.current ? !differs(now, lastSent.current) : !now.title.trim()) return false;
      if (Object.keys(validate(now, !current)).length > 0) return false;
      return send(now, { byOwner: false });
    });
  const autosaveRef = useRef(autosave);
  useEffect(() => {
    autosaveRef.current = autosave;
  });

  const autosaving = saved?.status !== "published" && !conflict;
  useEffect(() => {
    if (!autosaving) return;
    const timer = setTimeout(() => autosaveRef.current(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [values, autosaving]);

  useEffect(() => {
    const onHidden = () => {
      if (document.visibilityState === "hidden") autosaveRef.current();
    };
    document.addEventListener("visibilitychange", onHidden);
    return () => document.removeEventListener("visibilitychange", onHidden);
  }, []);

  return {
    saved,
    entityTag: tag,
    /** A save the owner asked for is in flight. */
    busy: ownerSaving > 0,
    conflict,
    setConflict,
    adopt,
    flush: autosave,
    /** Saves `values` (with a status change), over whatever is stored when `overwrite`. */
    save: (sent: Values, options: { change?: StatusChange; overwrite?: boolean }) => enqueue(() => send(sent, { ...options, byOwner: true })),
    /** What the bar says of the save state. */
    indicator: (dirty: boolean) => (saving > 0 ? "Saving…" : dirty ? "Unsaved changes" : savedAt ? `Saved ${formatTimeOfDay(savedAt)}` : ""),
  };
}
