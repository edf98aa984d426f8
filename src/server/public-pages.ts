import { cache } from "react";
import { isValidHandle } from "./accounts/handle";
import { SLUG_PATTERN } from "./blogs/fields";
import { findPublicBlog, listPublicBlogs } from "./blogs/public-blogs";
import { getDb } from "./db";

/** The public pages' reads, once per request (the page and its metadata share them). */
export const publicBlogIndex = cache(async (handle: string) =>
  isValidHandle(handle) ? listPublicBlogs(getDb(), handle) : null,
);

export const publicBlog = cache(async (handle: string, blogSlug: string) =>
  isValidHandle(handle) && SLUG_PATTERN.test(blogSlug) ? findPublicBlog(getDb(), handle, blogSlug) : null,
);
