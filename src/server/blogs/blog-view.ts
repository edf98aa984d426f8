import "server-only";
import type { Blog } from "~/generated/prisma/client";

/** A blog as the API shows it: its ten fields plus `content` (docs/api.md, writing rules), timestamps as ISO 8601. */
export interface BlogView {
  id: string;
  title: string;
  blogSlug: string;
  description: string;
  content: string;
  isPublic: boolean;
  allowApiAccess: boolean;
  seoTitle: string;
  seoDescription: string;
  createdAt: string;
  updatedAt: string;
}

export const BLOG_VIEW_COLUMNS = {
  id: true,
  title: true,
  blogSlug: true,
  description: true,
  content: true,
  isPublic: true,
  allowApiAccess: true,
  seoTitle: true,
  seoDescription: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** The columns of a blog the API shows, as the database returns them. */
export type BlogViewRow = Pick<Blog, keyof typeof BLOG_VIEW_COLUMNS>;

export function toBlogView(blog: BlogViewRow): BlogView {
  return { ...blog, createdAt: blog.createdAt.toISOString(), updatedAt: blog.updatedAt.toISOString() };
}
