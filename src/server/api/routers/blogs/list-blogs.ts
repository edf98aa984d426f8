import "server-only";
import { blogScope } from "~/server/blogs/blog-scope";
import { BLOG_LIST_PARAMETERS, type BlogListQuery } from "~/server/blogs/blog-list-query";
import { listBlogs } from "~/server/blogs/list-blogs";
import { ApiError } from "../../errors";
import { procedure } from "../../trpc";
import { listBlogsInput, listBlogsOutput } from "./schemas";

export const listBlogsProcedure = procedure
  .meta({
    permission: "read:blogs",
    minRole: "contributor",
    openapi: {
      method: "GET",
      path: "/blogs",
      tags: ["Blogs"],
      summary: "List blogs",
      description:
        "The caller's blogs that have API access enabled, newest first or in the `sort` asked. Blogs without API access are never returned. " +
        "`status` and `tag` filter (with `public`, every filter must hold). " +
        "`q` searches: only blogs whose title or slug contains it, ignoring case. " +
        "Deep pages: pass a response's pagination.nextCursor as `cursor` to read the next page at constant cost.",
    },
    errors: ["INVALID_PARAMETER"],
  })
  .input(listBlogsInput)
  .output(listBlogsOutput)
  .query(async ({ ctx, input }) => {
    const { cursor, ...sent } = input;
    const query: BlogListQuery = { ...sent, q: sent.q?.trim() || undefined };
    if (query.from && query.to && query.from > query.to) {
      throw new ApiError("INVALID_PARAMETER", "Invalid parameter: from", "from must not be after to");
    }
    const scope = blogScope(ctx.caller);
    if (!cursor) return { success: true as const, data: await listBlogs(ctx.sql, scope, query) };
    // The cursor fixes the query it continues: parameters sent with it must agree with it.
    const comparable = (value: unknown) => (value instanceof Date ? value.getTime() : value);
    const conflict = BLOG_LIST_PARAMETERS.find(
      (name) => ctx.url.searchParams.has(name) && comparable(query[name]) !== comparable(cursor[name]),
    );
    if (conflict) {
      throw new ApiError(
        "INVALID_PARAMETER",
        "Invalid parameter: cursor",
        `cursor was issued for another ${conflict}; omit ${conflict} or send the value the cursor was issued for`,
      );
    }
    const { key, id, ...continued } = cursor;
    return { success: true as const, data: await listBlogs(ctx.sql, scope, continued, { key, id }) };
  });
