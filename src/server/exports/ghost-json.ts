import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "~/server/db";
import { markdownToHtml } from "~/lib/markdown";
import { tagSlug } from "~/shared/tags";
import { exportedBlogs, publicationDate, type ExportedBlog } from "./exported-blog";
import { exportedImagePath, rewriteImageUrls, type ExportedImage } from "./image-paths";

/**
 * The export's ghost.json (docs/migrating.md, Export): the blogs as Ghost 5 imports them, so the
 * zip moves to Ghost, or back here, as a Ghost export. Each post carries its HTML (our renderer's)
 * and its Markdown verbatim in a mobiledoc markdown card, Ghost's own way of keeping Markdown: read
 * back, nothing is lost to an HTML round trip. Image URLs are Ghost's, `__GHOST_URL__/content/images/…`,
 * the zip's paths. Written as a stream of text, a batch of blogs at a time.
 */

/** What Ghost's importer puts in place of the site's address in URLs. */
export const GHOST_URL = "__GHOST_URL__/";

/** An id in Ghost's form (24 hex digits), the same for the same name: tags and the author have no id of ours to keep. */
const ghostId = (name: string) => createHash("sha256").update(name).digest("hex").slice(0, 24);

/** Ghost's mobiledoc of one markdown card holding the whole post. */
export const markdownMobiledoc = (markdown: string) =>
  JSON.stringify({ version: "0.3.1", atoms: [], cards: [["markdown", { markdown }]], markups: [], sections: [[10, 0]] });

const iso = (date: Date | null) => date?.toISOString() ?? null;

function ghostPost(blog: ExportedBlog, images: ReadonlyMap<string, ExportedImage>, authorId: string) {
  const markdown = rewriteImageUrls(blog.content, images, GHOST_URL);
  const cover = blog.coverImageId ? images.get(blog.coverImageId) : undefined;
  return {
    id: blog.id,
    title: blog.title,
    slug: blog.blogSlug,
    mobiledoc: markdownMobiledoc(markdown),
    lexical: null,
    html: markdownToHtml(markdown),
    feature_image: cover ? `${GHOST_URL}${exportedImagePath(cover)}` : null,
    featured: false,
    type: "post",
    status: blog.status,
    visibility: "public",
    created_at: iso(blog.createdAt),
    updated_at: iso(blog.updatedAt),
    published_at: iso(publicationDate(blog)),
    custom_excerpt: blog.description || null,
    // Ghost before 4.0 kept these on the post, Ghost 5 in posts_meta: both are written, for readers of either.
    meta_title: blog.seoTitle || null,
    meta_description: blog.seoDescription || null,
    author_id: authorId,
  };
}

/** The export's JSON, piece by piece. */
export async function* ghostJson(
  db: Db,
  account: { id: string; name: string; email: string; handle: string },
  images: ReadonlyMap<string, ExportedImage>,
): AsyncGenerator<string> {
  const authorId = ghostId(`user:${account.id}`);
  yield `{"db":[{"meta":${JSON.stringify({ exported_on: Date.now(), version: "5.0.0" })},"data":{"posts":[`;
  // The relations hold a few short strings a blog, not its content: kept until the posts are written.
  const tags = new Map<string, { id: string; name: string; slug: string }>();
  const postsTags: { id: string; post_id: string; tag_id: string; sort_order: number }[] = [];
  const postsAuthors: { id: string; post_id: string; author_id: string; sort_order: number }[] = [];
  const postsMeta: { id: string; post_id: string; meta_title: string | null; meta_description: string | null }[] = [];
  let first = true;
  for await (const batch of exportedBlogs(db, account.id)) {
    for (const blog of batch) {
      yield `${first ? "" : ","}${JSON.stringify(ghostPost(blog, images, authorId))}`;
      first = false;
      blog.tags.forEach((name, order) => {
        const slug = tagSlug(name);
        const tag = tags.get(slug) ?? { id: ghostId(`tag:${slug}`), name, slug };
        tags.set(slug, tag);
        postsTags.push({ id: ghostId(`post-tag:${blog.id}:${slug}`), post_id: blog.id, tag_id: tag.id, sort_order: order });
      });
      postsAuthors.push({ id: ghostId(`post-author:${blog.id}`), post_id: blog.id, author_id: authorId, sort_order: 0 });
      if (blog.seoTitle || blog.seoDescription) {
        postsMeta.push({ id: ghostId(`post-meta:${blog.id}`), post_id: blog.id, meta_title: blog.seoTitle || null, meta_description: blog.seoDescription || null });
      }
    }
  }
  const users = [{ id: authorId, name: account.name || account.handle, slug: account.handle, email: account.email, status: "active" }];
  yield `],"tags":${JSON.stringify([...tags.values()])},"posts_tags":${JSON.stringify(postsTags)},"users":${JSON.stringify(users)},`;
  yield `"posts_authors":${JSON.stringify(postsAuthors)},"posts_meta":${JSON.stringify(postsMeta)}}}]}`;
}
