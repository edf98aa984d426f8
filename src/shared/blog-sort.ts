/** The orders of GET /api/v1/blogs (docs/api.md, listing): a column, ascending or with `-` descending; ties by id the same way. */
export const BLOG_SORTS = ["createdAt", "-createdAt", "publishedAt", "-publishedAt", "updatedAt", "-updatedAt", "title", "-title"] as const;
export type BlogSortName = (typeof BLOG_SORTS)[number];

export interface BlogSort {
  column: "createdAt" | "publishedAt" | "updatedAt" | "title";
  descending: boolean;
}

export const DEFAULT_BLOG_SORT_NAME: BlogSortName = "-createdAt";

export function parseBlogSort(name: BlogSortName): BlogSort {
  const descending = name.startsWith("-");
  return { column: (descending ? name.slice(1) : name) as BlogSort["column"], descending };
}

export const DEFAULT_BLOG_SORT = parseBlogSort(DEFAULT_BLOG_SORT_NAME);
