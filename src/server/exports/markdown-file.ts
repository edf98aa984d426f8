import "server-only";
import { stringify } from "yaml";
import { publicationDate, type ExportedBlog } from "./exported-blog";
import { exportedImagePath, rewriteImageUrls, type ExportedImage } from "./image-paths";

/** Markdown files sit in posts/, the images in content/images/: their paths seen from a post. */
const FROM_POSTS = "../";

/** A blog's path in the zip. */
export const markdownFilePath = (blog: Pick<ExportedBlog, "blogSlug">) => `posts/${blog.blogSlug}.md`;

/**
 * A blog as a Markdown file with YAML front matter (docs/migrating.md, Export): what Jekyll, Hugo
 * and most static-site tools read, the images as paths relative to the file.
 */
export function markdownFile(blog: ExportedBlog, images: ReadonlyMap<string, ExportedImage>): string {
  const cover = blog.coverImageId ? images.get(blog.coverImageId) : undefined;
  const date = publicationDate(blog);
  const frontMatter = {
    title: blog.title,
    slug: blog.blogSlug,
    status: blog.status,
    ...(date && { date: date.toISOString() }),
    ...(blog.status === "scheduled" && blog.publishAt && { publishAt: blog.publishAt.toISOString() }),
    created: blog.createdAt.toISOString(),
    updated: blog.updatedAt.toISOString(),
    tags: blog.tags,
    description: blog.description,
    ...(cover && { cover_image: `${FROM_POSTS}${exportedImagePath(cover)}` }),
    seo_title: blog.seoTitle,
    seo_description: blog.seoDescription,
  };
  // The body follows the closing line as it is, so it reads back unchanged.
  return `---\n${stringify(frontMatter)}---\n${rewriteImageUrls(blog.content, images, FROM_POSTS)}`;
}
