import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { ownerColumn } from "~/server/accounts/account-sql";
import type { Db, SqlPool } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import { PREVIEW_LIFETIMES, type PreviewLifetime } from "~/shared/preview-lifetimes";
import type { BlogScope } from "./blog-scope";
import { findBlog } from "./find-blog";
import { COVER_SELECT, PENDING_VARIANTS_SELECT, type CoverImage } from "./public-blogs";

/**
 * Secret links to a blog as its public page will look (docs/api.md, preview links): the token is
 * 32 random bytes (base64url, 43 characters), shown once; only its SHA-256 is stored, so the
 * database alone opens no preview. An expired or revoked link finds nothing.
 */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export interface PreviewLinkView {
  id: string;
  createdAt: string;
  expiresAt: string;
}

export async function createPreviewLink(
  db: Db,
  scope: BlogScope,
  blogId: string,
  lifetime: PreviewLifetime,
): Promise<PreviewLinkView & { path: string }> {
  await findBlog(db, scope, { id: blogId });
  const token = randomBytes(32).toString("base64url");
  const link = await db.previewLink.create({
    data: { blogId, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + PREVIEW_LIFETIMES[lifetime].ms) },
    select: { id: true, createdAt: true, expiresAt: true },
  });
  return { ...toView(link), path: `/preview/${token}` };
}

/** The blog's links that still open, newest first. */
export async function listPreviewLinks(db: Db, scope: BlogScope, blogId: string): Promise<PreviewLinkView[]> {
  await findBlog(db, scope, { id: blogId });
  const links = await db.previewLink.findMany({
    where: { blogId, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: "desc" },
    select: { id: true, createdAt: true, expiresAt: true },
  });
  return links.map(toView);
}

/** Revoked: the link is deleted, and its address is a 404 from the next request on. */
export async function revokePreviewLink(db: Db, scope: BlogScope, blogId: string, previewId: string): Promise<{ id: string; revoked: true }> {
  await findBlog(db, scope, { id: blogId });
  const { count } = await db.previewLink.deleteMany({ where: { id: previewId, blogId } });
  if (count === 0) throw new DomainError("RESOURCE_NOT_FOUND", `No preview link ${previewId} of blog ${blogId}`);
  return { id: previewId, revoked: true };
}

export interface PreviewedBlog {
  title: string;
  description: string;
  content: string;
  tags: string[];
  publishedAt: Date | null;
  cover: CoverImage | null;
  imagesWithPendingVariants: string[];
  authorId: string;
  authorName: string;
  authorHandle: string;
  expiresAt: Date;
}

/** The blog a token opens, with its author, or null (unknown, expired, revoked or malformed). */
export async function findPreviewedBlog(sql: SqlPool, token: string): Promise<PreviewedBlog | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const { rows } = await sql.query<PreviewedBlog>(
    `SELECT b."title", b."description", b."content", b."tags", b."publishedAt", ${COVER_SELECT}, ${PENDING_VARIANTS_SELECT}, a."id" AS "authorId", ${ownerColumn("a", "name")} AS "authorName", a."handle" AS "authorHandle", p."expiresAt"
     FROM "preview_link" AS p JOIN "blog" AS b ON b."id" = p."blogId" JOIN "organization" AS a ON a."id" = b."userId"
     WHERE p."tokenHash" = $1 AND p."expiresAt" > now()`,
    [hashToken(token)],
  );
  return rows[0] ?? null;
}

function toView(link: { id: string; createdAt: Date; expiresAt: Date }): PreviewLinkView {
  return { id: link.id, createdAt: link.createdAt.toISOString(), expiresAt: link.expiresAt.toISOString() };
}
