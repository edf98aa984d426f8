import "server-only";
import { blogScope } from "~/server/blogs/blog-scope";
import { listBlogs } from "~/server/blogs/list-blogs";
import { ApiError } from "../../errors";
import { procedure } from "../../trpc";
import { listBlogsInput, listBlogsOutput } from "./schemas";

export const listBlogsProcedure = procedure
  .meta({
    permission: "read:blogs",
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
    if (input.from && input.to && input.from > input.to) {
      throw new ApiError("INVALID_PARAMETER", "Invalid parameter: from", "from must not be after to");
    }
    const scope = blogScope(ctx.caller);
    const search = input.q?.trim() || undefined;
    const { cursor } = input;
    if (!cursor) {
      const data = await listBlogs(ctx.sql, scope, {
        page: input.page,
        limit: input.limit,
        sort: input.sort,
        isPublic: input.public,
        status: input.status,
        tag: input.tag,
        from: input.from,
        to: input.to,
        search,
      });
      return { success: true as const, data };
    }
    // The cursor fixes the query it continues: parameters sent with it must agree with it.
    const sent = ctx.url.searchParams;
    const differs = (name: string, sentValue: unknown, cursorValue: unknown) =>
      sent.has(name) && sentValue !== cursorValue ? name : undefined;
    const day = (date?: Date) => date?.getTime();
    const conflict =
      differs("page", input.page, cursor.page) ??
      differs("limit", input.limit, cursor.limit) ??
      differs("sort", input.sort, cursor.sort) ??
      differs("public", input.public, cursor.isPublic) ??
      differs("status", input.status, cursor.status) ??
      differs("tag", input.tag, cursor.tag) ??
      differs("from", day(input.from), day(cursor.from)) ??
      differs("to", day(input.to), day(cursor.to)) ??
      differs("q", search, cursor.search);
    if (conflict) {
      throw new ApiError(
        "INVALID_PARAMETER",
        "Invalid parameter: cursor",
        `cursor was issued for another ${conflict}; omit ${conflict} or send the value the cursor was issued for`,
      );
    }
    const data = await listBlogs(ctx.sql, scope, {
      page: cursor.page,
      limit: cursor.limit,
      sort: cursor.sort,
      isPublic: cursor.isPublic,
      status: cursor.status,
      tag: cursor.tag,
      from: cursor.from,
      to: cursor.to,
      search: cursor.search,
      after: cursor,
    });
    return { success: true as const, data };
  });
