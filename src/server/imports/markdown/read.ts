import "server-only";
import { posix } from "node:path";
import { parse as parseYaml } from "yaml";
import { openArchive, type Archive } from "../archive";
import { markdownImageUrls, replaceImageUrls } from "../markdown-images";
import { ImportFileError, type ImportSource, type SourceItem, type SourcePost } from "../source";

/**
 * Opens a Markdown export (docs/migrating.md, Markdown): a zip of .md/.markdown files with front
 * matter, as Jekyll (_posts/YYYY-MM-DD-slug.md, _drafts/), Hugo (content/posts/…, TOML between
 * +++ lines or YAML), Hashnode and Dev.to export them. Images a post references by a path inside
 * the archive are given by that entry's name (asset()); other files are skipped and counted.
 */
export async function openMarkdownExport(path: string): Promise<ImportSource> {
  const archive = await openArchive(path);
  try {
    const names = archive.names.filter((name) => !name.startsWith("__MACOSX/") && !posix.basename(name).startsWith("."));
    const posts = names.filter(isMarkdownFile);
    if (posts.length === 0) throw new ImportFileError("The zip holds no Markdown file (.md or .markdown)");
    const entries = new Set(names);
    // A first pass over the posts tells which files are their images (not counted as skipped).
    const used = new Set<string>();
    for (const name of posts) {
      const post = await readPost(archive, name, entries);
      for (const url of [...markdownImageUrls(post.markdown), post.coverImage ?? ""]) if (entries.has(url)) used.add(url);
    }
    const others = names.filter((name) => !isMarkdownFile(name) && !used.has(name));
    return {
      format: "markdown",
      total: posts.length + others.length,
      siteUrl: null,
      async *items(): AsyncIterable<SourceItem> {
        for (const name of posts) yield { kind: "post", post: await readPost(archive, name, entries) };
        for (const name of others) yield { kind: "skipped", sourceId: `markdown:${name}`, what: "file", title: name, reason: "not a Markdown post" };
      },
      asset: async (reference) => (entries.has(reference) ? archive.read(reference) : null),
      close: async () => archive.close(),
    };
  } catch (error) {
    archive.close();
    throw error;
  }
}

const isMarkdownFile = (name: string) => /\.(md|markdown)$/i.test(name);

/** Jekyll's post file name: its date, then its slug. */
const DATED_NAME = /^(\d{4}-\d{2}-\d{2})-(.+)$/;

async function readPost(archive: Archive, name: string, entries: Set<string>): Promise<SourcePost> {
  const text = ((await archive.read(name)) ?? Buffer.alloc(0)).toString("utf8").replace(/^\uFEFF/, "");
  const { fields, body, notes } = splitFrontMatter(text);
  const directory = posix.dirname(name);
  const fileBase = posix.basename(name).replace(/\.(md|markdown)$/i, "");
  // A Hugo page bundle (content/posts/my-post/index.md) is named by its directory.
  const stem = /^(index|_index)$/i.test(fileBase) && directory !== "." ? posix.basename(directory) : fileBase;
  const dated = DATED_NAME.exec(stem);
  const inArchive = (reference: string) => resolveReference(reference, directory, entries);

  let markdown = replaceImageUrls(body, (url) => inArchive(url) ?? url);
  let title = text_(fields.title);
  if (!title) {
    // No title in the front matter: the first heading is it, and leaves the body.
    const heading = /^#\s+(.+)\n+/.exec(markdown.trimStart());
    if (heading) {
      title = heading[1]!.trim();
      markdown = markdown.trimStart().slice(heading[0].length);
    }
  }
  const date = dateOf(fields.date ?? fields.datePublished ?? fields.publishDate ?? fields.published_at) ?? (dated ? dateOf(dated[1]) : null);
  const updatedAt = dateOf(fields.lastmod ?? fields.updated ?? fields.updated_at ?? fields.dateUpdated);
  const draft = fields.draft === true || fields.published === false || name.split("/").includes("_drafts");
  const status = draft ? "draft" : date && date.getTime() > Date.now() ? "scheduled" : "published";
  const cover = coverOf(fields);
  return {
    sourceId: `markdown:${name}`,
    title: title || stem,
    slug: text_(fields.slug) || (dated ? dated[2]! : stem),
    excerpt: text_(fields.description ?? fields.excerpt ?? fields.subtitle ?? fields.summary),
    markdown: markdown.trim(),
    contentNotes: notes,
    status,
    date,
    createdAt: date,
    updatedAt,
    tags: [...listOf(fields.tags), ...listOf(fields.categories), ...listOf(fields.category)],
    coverImage: cover ? (inArchive(cover) ?? cover) : null,
    seoTitle: text_(fields.seo_title ?? fields.seoTitle ?? fields.meta_title),
    seoDescription: text_(fields.seo_description ?? fields.seoDescription ?? fields.meta_description),
    // Jekyll's permalink and Hugo's url: the post's address on the old site.
    oldPath: text_(fields.permalink ?? fields.url) || null,
  };
}

/** The archive entry a post's relative (or site-root) image reference names, if the archive has it; http(s) URLs are the importer's. */
function resolveReference(reference: string, directory: string, entries: Set<string>): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(reference) || reference.startsWith("//")) return null;
  let path: string;
  try {
    path = decodeURIComponent(reference.split(/[?#]/)[0]!);
  } catch {
    return null;
  }
  const candidates = path.startsWith("/")
    ? // Site-root paths: Jekyll serves the root as is, Hugo its static/ directory.
      [path.slice(1), `static${path}`, ...[...entries].filter((entry) => entry.endsWith(path)).slice(0, 1)]
    : [posix.join(directory, path)];
  return candidates.map((candidate) => posix.normalize(candidate)).find((candidate) => entries.has(candidate)) ?? null;
}

type Fields = Record<string, unknown>;

/** YAML between --- lines, or Hugo's TOML between +++ lines; what cannot be read is told as a note. */
function splitFrontMatter(text: string): { fields: Fields; body: string; notes: string[] } {
  const match = /^(---|\+\+\+)[ \t]*\r?\n([\s\S]*?)\r?\n\1[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { fields: {}, body: text, notes: [] };
  const body = text.slice(match[0].length);
  if (match[1] === "+++") return { ...parseToml(match[2]!), body };
  try {
    const parsed: unknown = parseYaml(match[2]!, { maxAliasCount: 100 });
    return { fields: isFields(parsed) ? parsed : {}, body, notes: [] };
  } catch (error) {
    return { fields: {}, body, notes: [`The front matter could not be read as YAML (${(error as Error).message.split("\n")[0]}): title, date and tags were taken from the file`] };
  }
}

/** Hugo's TOML front matter, its common keys: `key = "string"`, numbers, booleans, dates and arrays of strings. */
function parseToml(text: string): { fields: Fields; notes: string[] } {
  const fields: Fields = {};
  const unread: string[] = [];
  let table = "";
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("#")) continue;
    const header = /^\[([^\]]+)\]$/.exec(trimmed);
    if (header) {
      table = header[1]!.trim();
      continue;
    }
    const pair = /^([A-Za-z0-9_-]+)\s*=\s*(.+)$/.exec(trimmed);
    const value = pair ? tomlValue(pair[2]!.trim()) : undefined;
    if (!pair || value === undefined) unread.push(trimmed);
    else if (!table) fields[pair[1]!] = value;
    else if (table === "cover" && pair[1] === "image") fields.cover = value;
  }
  const notes = unread.length > 0 ? [`${unread.length} line${unread.length === 1 ? "" : "s"} of the TOML front matter could not be read and were left out: ${unread.slice(0, 3).join("; ")}`] : [];
  return { fields, notes };
}

function tomlValue(raw: string): unknown {
  const string = /^"((?:[^"\\]|\\.)*)"$/.exec(raw) ?? /^'([^']*)'$/.exec(raw);
  if (string) return string[1]!.replace(/\\(["\\])/g, "$1");
  if (raw === "true" || raw === "false") return raw === "true";
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw)) return raw;
  const array = /^\[(.*)\]$/.exec(raw);
  if (array) {
    const items = [...array[1]!.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((item) => item[1] ?? item[2] ?? "");
    return items;
  }
  return undefined;
}

function isFields(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text_(value: unknown): string {
  return typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "";
}

/** Tags as a list, or Dev.to's comma-separated string. */
function listOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(text_).filter(Boolean);
  if (typeof value === "string") return value.split(",").map((tag) => tag.trim()).filter(Boolean);
  return [];
}

function dateOf(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== "string" && typeof value !== "number") return null;
  const date = new Date(typeof value === "string" && /^\d{4}-\d{2}-\d{2} \d/.test(value) ? value.replace(" ", "T") : value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The cover: Dev.to's cover_image, Jekyll's image (or image.path), Ghost-style feature_image, Hashnode's and Hugo's cover (or cover.image). */
function coverOf(fields: Fields): string | null {
  for (const key of ["cover_image", "feature_image", "image", "cover", "coverImage", "featured_image"]) {
    const value = fields[key];
    if (typeof value === "string" && value.trim()) return value.trim();
    if (isFields(value)) {
      const nested = text_(value.image ?? value.path ?? value.src ?? value.url);
      if (nested) return nested;
    }
  }
  return null;
}
