import "server-only";
import { z } from "zod";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import { isoTimestampSchema } from "~/server/common/timestamps";
import { blogFieldSchemas, strictBoolean } from "~/shared/blog-fields";
import { findUnstorableText } from "~/shared/storable-text";
import { writeAs } from "./change-source";
import { firstFreeSlug, slugify } from "./slug";

/** One blog of an import: the API's blog object, history fields included; other fields are ignored. */
const importedBlogSchema = z.object(
  {
    title: blogFieldSchemas.title,
    blogSlug: blogFieldSchemas.blogSlug.optional(),
    description: blogFieldSchemas.description.default(""),
    content: blogFieldSchemas.content.default(""),
    isPublic: blogFieldSchemas.isPublic.default(false),
    allowApiAccess: strictBoolean("allowApiAccess").default(false),
    seoTitle: blogFieldSchemas.seoTitle.default(""),
    seoDescription: blogFieldSchemas.seoDescription.default(""),
    tags: blogFieldSchemas.tags.default([]),
    publishAt: blogFieldSchemas.publishAt.optional(),
    publishedAt: isoTimestampSchema("publishedAt").nullable().optional(),
    createdAt: isoTimestampSchema("createdAt").optional(),
    updatedAt: isoTimestampSchema("updatedAt").optional(),
  },
  { error: "a blog must be a JSON object" },
);

type ImportedBlog = z.infer<typeof importedBlogSchema>;

/** 12 columns a row: 1,000 rows stay well under PostgreSQL's 65,535 parameters a statement. */
const ROWS_PER_INSERT = 1000;

/**
 * Brings an existing blog history into an account, all or nothing: every entry is checked first
 * and a bad one is named by its index in the array ("entry 3: …"). createdAt (default now),
 * isPublic and allowApiAccess (default false), tags, publishAt and publishedAt are kept (a public
 * blog without publishedAt was published when created). Explicit slugs must be free; missing ones
 * are derived from the title, clear of the account's blogs and of the other entries.
 */
export async function importBlogs(db: Db, input: { accountId: string; blogs: unknown; authors?: string[] }): Promise<{ imported: number }> {
  const entries = parseEntries(input.blogs);
  const now = new Date();

  return writeAs(
    db,
    { by: "cli" },
    async (tx) => {
      const existing = await tx.blog.findMany({ where: { userId: input.accountId }, select: { blogSlug: true } });
      const taken = new Set(existing.map((blog) => blog.blogSlug));
      reserveExplicitSlugs(entries, taken);

      const rows = entries.map((entry) => {
        const blogSlug = entry.blogSlug ?? firstFreeSlug(slugify(entry.title), (slug) => taken.has(slug));
        taken.add(blogSlug);
        const createdAt = entry.createdAt ?? now;
        // Without authors given, the database makes the publication's owner the author (docs/authors.md, Authors).
        return { ...entry, userId: input.accountId, blogSlug, createdAt, updatedAt: entry.updatedAt ?? createdAt, ...(input.authors && { authors: input.authors }) };
      });
      // In statements of our own size, one after the other: past its parameter limit Prisma splits
      // a createMany itself and sends the parts concurrently on the transaction's one connection.
      for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
        await tx.blog.createMany({ data: rows.slice(start, start + ROWS_PER_INSERT) });
      }
      return { imported: rows.length };
    },
    // Big imports outlast Prisma's 5 s default for an interactive transaction.
    { timeout: 5 * 60_000 },
  );
}

function parseEntries(blogs: unknown): ImportedBlog[] {
  if (!Array.isArray(blogs)) throw new DomainError("INVALID_PARAMETER", "the import must be a JSON array of blogs");
  return blogs.map((blog: unknown, index) => {
    if (isObject(blog) && blog.title == null) {
      throw new DomainError("MISSING_REQUIRED_FIELD", `entry ${index}: title is required`);
    }
    const unstorable = findUnstorableText(blog);
    if (unstorable) throw new DomainError("INVALID_PARAMETER", `entry ${index}: ${unstorable.problem}`);
    const parsed = importedBlogSchema.safeParse(blog);
    if (!parsed.success) {
      throw new DomainError("INVALID_PARAMETER", `entry ${index}: ${parsed.error.issues[0]?.message ?? "invalid blog"}`);
    }
    return parsed.data;
  });
}

/**
 * Adds the entries' explicit slugs to `taken`, refusing one that an existing blog or an earlier
 * entry has. Reserving them all before deriving any keeps a derived slug off a later entry's.
 */
function reserveExplicitSlugs(entries: ImportedBlog[], taken: Set<string>): void {
  const entryBySlug = new Map<string, number>();
  entries.forEach(({ blogSlug }, index) => {
    if (blogSlug === undefined) return;
    const earlier = entryBySlug.get(blogSlug);
    if (earlier !== undefined) {
      throw new DomainError("RESOURCE_CONFLICT", `entry ${index}: blogSlug ${blogSlug} is also the slug of entry ${earlier}`);
    }
    if (taken.has(blogSlug)) {
      throw new DomainError("RESOURCE_CONFLICT", `entry ${index}: blogSlug ${blogSlug} is already used by a blog of this account`);
    }
    entryBySlug.set(blogSlug, index);
  });
  for (const slug of entryBySlug.keys()) taken.add(slug);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
