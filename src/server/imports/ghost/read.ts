import "server-only";
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { type Archive, isZip, openArchive } from "../archive";
import { ImportFileError, type ImportSource, type SourceItem, type SourcePost } from "../source";
import { plainGhostHtml } from "./cards";
import { renderLexical, renderMobiledoc, type Segment, segmentsToMarkdown } from "./content";

/**
 * A Ghost export (docs/migrating.md, Ghost): the JSON of Ghost's "Export content" (1.x to 6.x, the
 * `{db: [{meta, data}]}` shape or the older bare `{meta, data}`), alone or in the zip Ghost(Pro)
 * gives with the site's content/images. The JSON is parsed whole, so it is held to
 * MAX_GHOST_JSON_BYTES (exports run to tens of MB; above this it is refused), and only the tables
 * the import reads are kept.
 */
export const MAX_GHOST_JSON_BYTES = 100 * 1024 * 1024;

/** Ghost writes its own address as this in exported content (5.x), so an export moves between domains. */
const GHOST_URL = "__GHOST_URL__";

const EXCERPT_LENGTH = 300;

type Row = Record<string, unknown>;

interface GhostTables {
  posts: Row[];
  tags: Map<string, Row>;
  /** A post's tag ids in their sort order. */
  postTags: Map<string, string[]>;
  postsMeta: Map<string, Row>;
}

export async function openGhostExport(path: string): Promise<ImportSource> {
  const head = Buffer.alloc(4);
  const file = await open(path, "r");
  try {
    await file.read(head, 0, 4, 0);
  } finally {
    await file.close();
  }
  if (!isZip(head)) {
    const { size } = await stat(path);
    if (size > MAX_GHOST_JSON_BYTES) throw tooBig();
    return ghostSource(tablesOf(await readBounded(createReadStream(path))), null);
  }
  const archive = await openArchive(path);
  try {
    const entry = exportEntry(archive.names);
    const tables = tablesOf(await readBounded(await archive.stream(entry)));
    return ghostSource(tables, archive);
  } catch (error) {
    archive.close();
    throw error;
  }
}

const tooBig = () => new ImportFileError(`the Ghost export's JSON is larger than ${MAX_GHOST_JSON_BYTES / 1024 / 1024} MB; export without members, or split it`);

/** The zip's export JSON: a .json outside content/ (Ghost names it <site>.ghost.<date>.json). */
function exportEntry(names: string[]): string {
  const candidates = names.filter((name) => name.toLowerCase().endsWith(".json") && !/(^|\/)content\//.test(name) && !/(^|\/)__MACOSX\//.test(name));
  if (candidates.length === 0) throw new ImportFileError("the zip holds no Ghost export (no .json file outside content/)");
  return candidates.sort((a, b) => a.split("/").length - b.split("/").length)[0]!;
}

async function readBounded(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stream) {
    bytes += (chunk as Buffer).length;
    if (bytes > MAX_GHOST_JSON_BYTES) {
      stream.destroy();
      throw tooBig();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const isRecord = (value: unknown): value is Row => typeof value === "object" && value !== null && !Array.isArray(value);
const rows = (value: unknown): Row[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const str = (value: unknown) => (typeof value === "string" ? value : typeof value === "number" ? String(value) : "");

function tablesOf(json: string): GhostTables {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new ImportFileError(`the Ghost export is not valid JSON (${(error as Error).message})`);
  }
  const database = isRecord(parsed) && Array.isArray(parsed.db) ? parsed.db[0] : parsed;
  const data = isRecord(database) && isRecord(database.data) ? database.data : null;
  if (!data || !Array.isArray(data.posts)) throw new ImportFileError("this JSON is not a Ghost export (it has no db[0].data.posts)");
  const postTags = new Map<string, { tagId: string; order: number }[]>();
  for (const link of rows(data.posts_tags)) {
    const postId = str(link.post_id);
    const list = postTags.get(postId) ?? [];
    list.push({ tagId: str(link.tag_id), order: typeof link.sort_order === "number" ? link.sort_order : list.length });
    postTags.set(postId, list);
  }
  return {
    posts: rows(data.posts),
    tags: new Map(rows(data.tags).map((tag) => [str(tag.id), tag])),
    postTags: new Map([...postTags].map(([postId, list]) => [postId, list.sort((a, b) => a.order - b.order).map((each) => each.tagId)])),
    postsMeta: new Map(rows(data.posts_meta).map((meta) => [str(meta.post_id), meta])),
  };
}

/** Ghost's own address placeholder dropped: its images become /content/images/… paths, its links relative. */
const withoutGhostUrl = (text: string) => text.split(GHOST_URL).join("");

function ghostSource(tables: GhostTables, archive: Archive | null): ImportSource {
  // content/images/… (and media/, files/) entries, however deep the zip nests the site's folder.
  const assets = new Map<string, string>();
  for (const name of archive?.names ?? []) {
    const match = /(?:^|\/)(content\/(?:images|media|files)\/.+)$/.exec(name);
    if (match && !assets.has(match[1]!)) assets.set(match[1]!, name);
  }
  return {
    format: "ghost",
    total: tables.posts.length,
    // Ghost exports do not state the site's address (its own links are __GHOST_URL__ since 4.0).
    siteUrl: null,
    async *items(): AsyncIterable<SourceItem> {
      for (const post of tables.posts) yield itemOf(post, tables);
    },
    async asset(reference) {
      if (!archive) return null;
      const key = assetKey(reference);
      if (!key) return null;
      const entry = assets.get(key) ?? assets.get(key.replace(/^content\/images\/size\/[wh]\d+(?:h\d+)?\/(?:format\/[a-z]+\/)?/, "content/images/"));
      return entry ? archive.read(entry) : null;
    },
    async close() {
      archive?.close();
    },
  };
}

/**
 * The content/… path an image reference names: "__GHOST_URL__/content/images/a.jpg", "/content/images/a.jpg",
 * or an absolute URL whose path is the site's content/images (a 3.x export wrote its own address in full).
 */
function assetKey(reference: string): string | null {
  let path = withoutGhostUrl(reference.trim());
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return null;
    }
  }
  path = path.replace(/[?#].*$/, "");
  try {
    path = decodeURIComponent(path);
  } catch {
    return null;
  }
  const match = /(?:^|\/)(content\/(?:images|media|files)\/.+)$/.exec(path);
  if (!match || match[1]!.split("/").includes("..")) return null;
  return match[1]!;
}

function dateOf(value: unknown): Date | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function excerptOf(plaintext: string): string {
  const text = plaintext.replace(/\s+/g, " ").trim();
  if (text.length <= EXCERPT_LENGTH) return text;
  const cut = text.slice(0, EXCERPT_LENGTH);
  return `${cut.slice(0, cut.lastIndexOf(" ") > 0 ? cut.lastIndexOf(" ") : EXCERPT_LENGTH)}…`;
}

function itemOf(post: Row, tables: GhostTables): SourceItem {
  const id = str(post.id);
  const sourceId = `ghost:${id}`;
  const title = str(post.title);
  if (post.type === "page" || post.page === true || post.page === 1) {
    return { kind: "skipped", sourceId, what: "page", title, reason: "pages are not imported" };
  }
  const notes: string[] = [];
  const status = str(post.status);
  if (status === "sent") notes.push("Ghost sent this post as an email only; it is imported as a draft");

  const tags: string[] = [];
  for (const tagId of tables.postTags.get(id) ?? []) {
    const tag = tables.tags.get(tagId);
    const name = str(tag?.name).trim();
    if (!name) continue;
    if (name.startsWith("#") || tag?.visibility === "internal") notes.push(`the internal tag ${name} was left out`);
    else tags.push(name);
  }

  const segments: Segment[] = [];
  const html = str(post.html);
  if (html.trim()) segments.push({ html: plainGhostHtml(withoutGhostUrl(html), notes) });
  else if (str(post.lexical).trim()) segments.push(...renderLexical(withoutGhostUrl(str(post.lexical)), notes));
  else if (str(post.mobiledoc).trim()) segments.push(...renderMobiledoc(withoutGhostUrl(str(post.mobiledoc)), notes));
  const body = segmentsToMarkdown(segments, notes);

  const meta = tables.postsMeta.get(id);
  const mapped: SourcePost = {
    sourceId,
    title,
    slug: str(post.slug),
    excerpt: str(post.custom_excerpt).trim() || excerptOf(str(post.plaintext)),
    markdown: body.markdown,
    contentNotes: body.notes,
    status: status === "published" ? "published" : status === "scheduled" ? "scheduled" : "draft",
    date: status === "published" || status === "scheduled" ? dateOf(post.published_at) : null,
    createdAt: dateOf(post.created_at),
    updatedAt: dateOf(post.updated_at),
    tags,
    coverImage: str(post.feature_image) ? withoutGhostUrl(str(post.feature_image)) : null,
    seoTitle: str(meta?.meta_title) || str(post.meta_title),
    seoDescription: str(meta?.meta_description) || str(post.meta_description),
    // Ghost's default permalink (routes.yaml's /{slug}/); a custom routes.yaml is not in the export.
    oldPath: str(post.slug) ? `/${str(post.slug)}/` : null,
  };
  return { kind: "post", post: mapped };
}
