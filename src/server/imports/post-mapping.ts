import "server-only";
import { MAX_TAGS, TAG_MAX_LENGTH, tagSlug } from "~/shared/tags";
import type { SourcePost } from "./source";

/** How a source post's parts become a blog's (docs/migrating.md, What maps to what): pure rules of run-import.ts. */

/** The last segment of an image's URL or path, decoded when it can be ("photo%201.jpg" → "photo 1.jpg"). */
export function fileNameOf(url: string): string {
  const last = url.split(/[?#]/)[0]!.split("/").pop() ?? "";
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The first MAX_TAGS distinct tags (by slug), each as the shared tag rules take it (src/shared/tags.ts); the rest cut. */
export function importedTags(tags: string[]): { kept: string[]; cut: string[] } {
  const seen = new Set<string>();
  const kept: string[] = [];
  const cut: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim().slice(0, TAG_MAX_LENGTH).trim();
    const slug = tagSlug(tag);
    if (!slug || seen.has(slug)) continue;
    seen.add(slug);
    (kept.length < MAX_TAGS ? kept : cut).push(tag);
  }
  return { kept, cut };
}

/** published → public since its date; scheduled → publishAt (a past date: published now, and said); draft → draft. */
export function publishingOf(post: SourcePost, now: Date): { isPublic: boolean; publishAt: Date | null; publishedAt: Date | null; note?: string } {
  if (post.status === "draft") return { isPublic: false, publishAt: null, publishedAt: null };
  if (post.status === "scheduled" && post.date && post.date > now) return { isPublic: false, publishAt: post.date, publishedAt: null };
  const publishedAt = post.date ?? post.createdAt ?? now;
  if (post.status === "scheduled") {
    return { isPublic: true, publishAt: null, publishedAt, note: post.date ? `Scheduled for ${post.date.toISOString()}, already past: published` : "Scheduled without a date: published" };
  }
  return { isPublic: true, publishAt: null, publishedAt };
}
