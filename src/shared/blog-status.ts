/** Where a blog is in publishing (docs/api.md, publishing): kept by the database from isPublic and publishAt. */
export const BLOG_STATUSES = ["draft", "scheduled", "published"] as const;
export type BlogStatus = (typeof BLOG_STATUSES)[number];
