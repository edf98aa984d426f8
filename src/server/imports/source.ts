import "server-only";
import type { ImportFormat } from "~/shared/imports";

/**
 * What every format's reader gives the importer (docs/migrating.md, What maps to what): the export
 * as a stream of items, in the order of the file, so a 200 MB export is never held whole. The
 * importer (src/server/imports/run-import.ts) turns posts into blogs and counts the rest; a reader
 * knows nothing of the database.
 */

/** A post as its platform had it, already mapped to our terms. */
export interface SourcePost {
  /** Stable across exports of the same site, prefixed by the platform ("wordpress:https://site.example:42", "ghost:5f2…"): importing it again finds the blog it became. */
  sourceId: string;
  title: string;
  /** As the platform had it (may be taken or empty: the importer suffixes or derives one and reports it). */
  slug: string;
  /** The excerpt, plain text. */
  excerpt: string;
  /** The body as Markdown (HTML already converted by html-to-markdown.ts). Images are referenced by the URL or path the export uses. */
  markdown: string;
  /** Changes the reader made to the content that the owner should know of (an embed kept as a link, a shortcode we cannot render). */
  contentNotes: string[];
  /** publish → published, future → scheduled, anything else a draft. */
  status: "published" | "scheduled" | "draft";
  /** When it was published (published), or is to be (scheduled). */
  date: Date | null;
  createdAt: Date | null;
  updatedAt: Date | null;
  /** Categories and tags together, as written, in the platform's order (the importer keeps the first 10 distinct and reports the cut). */
  tags: string[];
  /** The featured image's URL or archive path. */
  coverImage: string | null;
  seoTitle: string;
  seoDescription: string;
  /** The post's old permalink path ("/2019/05/hello-world/"), when the export tells it; the importer adds the redirect when the import has an old URL. */
  oldPath: string | null;
}

/** A subscriber of the export's email list (Substack's). */
export interface SourceSubscriber {
  email: string;
  name: string;
  /** An address unsubscribed at the source stays unsubscribed here. */
  status: "active" | "unsubscribed";
  createdAt: Date | null;
}

export type SourceItem =
  | { kind: "post"; post: SourcePost }
  | { kind: "subscriber"; subscriber: SourceSubscriber }
  /** Left out: `what` says what it is ("page", "comment", "menu item", "attachment"), `reason` why. */
  | { kind: "skipped"; sourceId: string; what: string; title: string; reason: string };

/** An opened export. */
export interface ImportSource {
  format: ImportFormat;
  /** Items to expect (the progress bar's end), when the reader can tell before reading them. */
  total: number | null;
  /** The old site's address as the export states it (WordPress's base_site_url, Ghost's url), if any. */
  siteUrl: string | null;
  items(): AsyncIterable<SourceItem>;
  /**
   * The bytes of an image a post references (its URL or path as written), when the export carries
   * it (Ghost's content/images, a Markdown zip's files); null when it does not, and the importer
   * fetches an absolute http(s) URL itself.
   */
  asset(reference: string): Promise<Buffer | null>;
  close(): Promise<void>;
}

/** The refusal of a file that is not what it claims, too big, or hostile: the import fails with this message. */
export class ImportFileError extends Error {
  override name = "ImportFileError";
}
