import "server-only";
import { SLUG_MAX_LENGTH } from "~/shared/blog-fields";
import { slugText } from "~/shared/tags";

/** A slug derived from a title: "Hello, Wörld!" -> "hello-world"; "blog" when nothing is left. */
export function slugify(title: string): string {
  const slug = slugText(title).slice(0, SLUG_MAX_LENGTH).replace(/-+$/, "");
  return slug || "blog";
}

/** `base`, or the first of `base-2`, `base-3`, … that `isTaken` refuses. */
export function firstFreeSlug(base: string, isTaken: (slug: string) => boolean): string {
  if (!isTaken(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/, "") + suffix;
    if (!isTaken(candidate)) return candidate;
  }
}
