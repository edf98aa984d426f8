import "server-only";
import type { SqlPool } from "~/server/db";
import type { BlogScope } from "./blog-scope";

export interface TagCount {
  slug: string;
  /** As written on the most recently updated blog carrying it. */
  name: string;
  /** Blogs carrying it. */
  count: number;
}

/** The account's tags (for an API key, on blogs with API access), most used first, then by slug. */
export async function listTags(sql: SqlPool, scope: BlogScope): Promise<TagCount[]> {
  const { rows } = await sql.query<TagCount>(
    `SELECT "slug", (array_agg("tag" ORDER BY "updatedAt" DESC, "id"))[1] AS "name", count(DISTINCT "id")::int AS "count"
     FROM (
       SELECT b."id", b."updatedAt", t."tag", blog_tag_slug(t."tag") AS "slug"
       FROM "blog" AS b CROSS JOIN LATERAL unnest(b."tags") AS t("tag")
       WHERE b."userId" = $1${scope.apiAccessOnly ? ` AND b."allowApiAccess"` : ""} AND b."tagSlugs" <> '{}'
     ) AS tagged
     WHERE "slug" <> ''
     GROUP BY "slug" ORDER BY "count" DESC, "slug"`,
    [scope.accountId],
  );
  return rows;
}
