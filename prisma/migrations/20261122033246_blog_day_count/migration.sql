-- CreateTable
CREATE TABLE "blog_day_count" (
    "userId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "isPublic" BOOLEAN NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "blog_day_count_pkey" PRIMARY KEY ("userId","day","isPublic")
);

-- Kept exact by statement-level triggers on "blog", so every writer (API, dashboard, CLI import,
-- direct SQL) maintains it in the same transaction as the blogs it changes. Only API-visible
-- blogs ("allowApiAccess" true) are counted, by account, UTC creation day and visibility. Keys are
-- upserted in sorted order so that concurrent writers lock counter rows in the same order.
CREATE FUNCTION "blog_day_count_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "blog_day_count" ("userId", "day", "isPublic", "count")
    SELECT "userId", ("createdAt" AT TIME ZONE 'UTC')::date, "isPublic", count(*)::int
    FROM "new_rows" WHERE "allowApiAccess"
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("userId", "day", "isPublic") DO UPDATE SET "count" = "blog_day_count"."count" + EXCLUDED."count";
    RETURN NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    -- An update that changes no counted column (title, content...) has equal old and new keys,
    -- whose deltas cancel: nothing is written.
    INSERT INTO "blog_day_count" ("userId", "day", "isPublic", "count")
    SELECT "userId", "day", "isPublic", sum("delta")::int
    FROM (
      SELECT "userId", ("createdAt" AT TIME ZONE 'UTC')::date AS "day", "isPublic", -1 AS "delta"
      FROM "old_rows" WHERE "allowApiAccess"
      UNION ALL
      SELECT "userId", ("createdAt" AT TIME ZONE 'UTC')::date, "isPublic", 1
      FROM "new_rows" WHERE "allowApiAccess"
    ) AS "change"
    GROUP BY 1, 2, 3 HAVING sum("delta") <> 0 ORDER BY 1, 2, 3
    ON CONFLICT ("userId", "day", "isPublic") DO UPDATE SET "count" = "blog_day_count"."count" + EXCLUDED."count";
  ELSE
    INSERT INTO "blog_day_count" ("userId", "day", "isPublic", "count")
    SELECT "userId", ("createdAt" AT TIME ZONE 'UTC')::date, "isPublic", -count(*)::int
    FROM "old_rows" WHERE "allowApiAccess"
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("userId", "day", "isPublic") DO UPDATE SET "count" = "blog_day_count"."count" + EXCLUDED."count";
  END IF;
  -- Counters that dropped to zero carry nothing: remove them (deleted blogs, deleted accounts).
  DELETE FROM "blog_day_count" AS c
  USING (SELECT DISTINCT "userId", ("createdAt" AT TIME ZONE 'UTC')::date AS "day", "isPublic" FROM "old_rows") AS o
  WHERE c."count" = 0 AND c."userId" = o."userId" AND c."day" = o."day" AND c."isPublic" = o."isPublic";
  RETURN NULL;
END;
$$;

CREATE FUNCTION "blog_day_count_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "blog_day_count";
  RETURN NULL;
END;
$$;

CREATE TRIGGER "blog_day_count_insert" AFTER INSERT ON "blog"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "blog_day_count_apply"();
CREATE TRIGGER "blog_day_count_update" AFTER UPDATE ON "blog"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "blog_day_count_apply"();
CREATE TRIGGER "blog_day_count_delete" AFTER DELETE ON "blog"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "blog_day_count_apply"();
CREATE TRIGGER "blog_day_count_truncate" AFTER TRUNCATE ON "blog"
  FOR EACH STATEMENT EXECUTE FUNCTION "blog_day_count_truncate"();

-- Blogs that exist before this migration.
INSERT INTO "blog_day_count" ("userId", "day", "isPublic", "count")
SELECT "userId", ("createdAt" AT TIME ZONE 'UTC')::date, "isPublic", count(*)::int
FROM "blog" WHERE "allowApiAccess"
GROUP BY 1, 2, 3;
