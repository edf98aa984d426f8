import "server-only";
import { parse } from "csv-parse";
import { type Archive, openArchive } from "../archive";
import { htmlText } from "../html-tree";
import { ImportFileError, type ImportSource, type SourceItem } from "../source";
import { substackHtmlToMarkdown } from "./clean-html";

/**
 * A Substack export (docs/migrating.md, Substack): the zip of Settings → Exports, with posts.csv
 * (post_id "<number>.<slug>", post_date, is_published, type, audience, title, subtitle,
 * podcast_url, …), each body as posts/<post_id>.html, and the email list as
 * email_list.<publication>.csv (email, active_subscription, expiry, email_disabled, created_at, …).
 * The CSVs are streamed; a body is read when its post comes.
 *
 * What maps to what: newsletters and podcasts are posts (a podcast's audio kept as a link at the
 * top); threads (discussion threads, their body is the prompt) and pages are skipped; a paid-only
 * post becomes a draft (publishing it here would give away what Substack kept for paying readers);
 * every email-list row is a subscriber, unsubscribed when its email is disabled
 * (active_subscription only says whether the reader pays).
 */

/** A CSV record larger than this is not one of Substack's: refused rather than buffered. */
const MAX_CSV_RECORD_BYTES = 1024 * 1024;

const truthy = (value: string | undefined) => /^(true|t|1|yes)$/i.test((value ?? "").trim());

function dateOf(value: string | undefined): Date | null {
  if (!value?.trim()) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

async function* records(archive: Archive, name: string): AsyncIterable<Record<string, string>> {
  const parser = (await archive.stream(name)).pipe(
    parse({ columns: (header: string[]) => header.map((column) => column.trim().toLowerCase()), bom: true, skip_empty_lines: true, relax_column_count: true, max_record_size: MAX_CSV_RECORD_BYTES }),
  );
  try {
    for await (const record of parser) yield record as Record<string, string>;
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError(`${name} is not a readable CSV (${(error as Error).message})`);
  }
}

async function count(archive: Archive, name: string): Promise<number> {
  let rows = 0;
  for await (const record of records(archive, name)) if (record) rows++;
  return rows;
}

const depth = (name: string) => name.split("/").length;

export async function openSubstackExport(path: string): Promise<ImportSource> {
  const archive = await openArchive(path);
  try {
    const postsCsv = archive.names.filter((name) => /(^|\/)posts\.csv$/i.test(name)).sort((a, b) => depth(a) - depth(b))[0];
    if (!postsCsv) throw new ImportFileError("this zip is not a Substack export (it has no posts.csv)");
    const root = postsCsv.slice(0, postsCsv.length - "posts.csv".length);
    const emailLists = archive.names.filter((name) => name.startsWith(root) && /^email_list[^/]*\.csv$/i.test(name.slice(root.length)));
    let total = await count(archive, postsCsv);
    for (const list of emailLists) total += await count(archive, list);
    return {
      format: "substack",
      total,
      siteUrl: null,
      items: () => items(archive, postsCsv, root, emailLists),
      // Substack's images are on its CDN, never in the export: the importer fetches them.
      asset: async () => null,
      async close() {
        archive.close();
      },
    };
  } catch (error) {
    archive.close();
    throw error;
  }
}

async function* items(archive: Archive, postsCsv: string, root: string, emailLists: string[]): AsyncIterable<SourceItem> {
  for await (const row of records(archive, postsCsv)) {
    const postId = (row.post_id ?? "").trim();
    const dot = postId.indexOf(".");
    const numericId = dot > 0 ? postId.slice(0, dot) : postId;
    const slug = dot > 0 ? postId.slice(dot + 1) : "";
    const sourceId = `substack:${numericId}`;
    const title = htmlText(row.title ?? "");
    const type = (row.type ?? "newsletter").trim().toLowerCase();
    if (type === "thread") {
      yield { kind: "skipped", sourceId, what: "thread", title, reason: "discussion threads live in Substack's comments, not as posts" };
      continue;
    }
    if (type === "page") {
      yield { kind: "skipped", sourceId, what: "page", title, reason: "pages are not imported" };
      continue;
    }
    // A name from the CSV is only looked up among the archive's entries, never opened as a path.
    const body = /^[\w.-]+$/.test(postId) ? await archive.read(`${root}posts/${postId}.html`) : null;
    if (!body) {
      yield { kind: "skipped", sourceId, what: "post", title, reason: "the export has no body for it (posts/<id>.html is missing)" };
      continue;
    }
    const notes: string[] = [];
    let html = body.toString("utf8");
    const podcastUrl = (row.podcast_url ?? "").trim();
    if (type === "podcast" && /^https?:\/\//i.test(podcastUrl)) {
      notes.push(`the podcast episode's audio (${podcastUrl}) is kept as a link at the top`);
      html = `<p><a href="${podcastUrl.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}">Listen to the episode</a></p>${html}`;
    }
    const converted = substackHtmlToMarkdown(html);
    const published = truthy(row.is_published);
    const paidOnly = (row.audience ?? "").trim() === "only_paid";
    if (paidOnly && published) notes.push("Substack kept this post for paying subscribers: it is imported as a draft");
    yield {
      kind: "post",
      post: {
        sourceId,
        title,
        slug,
        excerpt: htmlText(row.subtitle ?? ""),
        markdown: converted.markdown,
        contentNotes: [...notes, ...converted.notes],
        status: published && !paidOnly ? "published" : "draft",
        date: published ? dateOf(row.post_date) : null,
        createdAt: dateOf(row.post_date),
        updatedAt: null,
        tags: [],
        coverImage: null,
        seoTitle: "",
        seoDescription: "",
        oldPath: slug ? `/p/${slug}` : null,
      },
    };
  }
  for (const list of emailLists) {
    for await (const row of records(archive, list)) {
      const email = (row.email ?? "").trim();
      if (!email) continue;
      yield {
        kind: "subscriber",
        subscriber: { email, name: (row.name ?? "").trim(), status: truthy(row.email_disabled) ? "unsubscribed" : "active", createdAt: dateOf(row.created_at) },
      };
    }
  }
}
