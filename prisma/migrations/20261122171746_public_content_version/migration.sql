-- CreateTable
CREATE TABLE "public_content_version" (
    "userId" TEXT NOT NULL,
    "version" BIGINT NOT NULL,

    CONSTRAINT "public_content_version_pkey" PRIMARY KEY ("userId")
);

-- CreateIndex
CREATE INDEX "blog_userId_isPublic_createdAt_id_idx" ON "blog"("userId", "isPublic", "createdAt" DESC, "id" DESC);

-- Set by statement-level triggers on "blog", so every writer (API, dashboard, CLI import, direct
-- SQL) moves it in the same transaction as the public blogs it changes: to the writing
-- transaction's id, which never repeats and only grows, even if a row is deleted and comes back.
-- A write touches an account's public pages when a row is public before or after it. Rows are
-- upserted in key order so that concurrent writers lock them in the same order.
CREATE FUNCTION "public_content_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "now_version" BIGINT := pg_current_xact_id()::text::bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "public_content_version" ("userId", "version")
    SELECT DISTINCT "userId", "now_version" FROM "new_rows" WHERE "isPublic" ORDER BY 1
    ON CONFLICT ("userId") DO UPDATE SET "version" = EXCLUDED."version";
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "public_content_version" ("userId", "version")
    SELECT "userId", "now_version" FROM (
      SELECT "userId" FROM "old_rows" WHERE "isPublic"
      UNION
      SELECT "userId" FROM "new_rows" WHERE "isPublic"
    ) AS "touched" ORDER BY 1
    ON CONFLICT ("userId") DO UPDATE SET "version" = EXCLUDED."version";
  ELSE
    -- An account's deletion deletes its blogs too (cascade): its row goes, it is not bumped.
    INSERT INTO "public_content_version" ("userId", "version")
    SELECT DISTINCT "userId", "now_version" FROM "old_rows" AS o
    WHERE "isPublic" AND EXISTS (SELECT 1 FROM "user" AS u WHERE u."id" = o."userId") ORDER BY 1
    ON CONFLICT ("userId") DO UPDATE SET "version" = EXCLUDED."version";
    DELETE FROM "public_content_version" AS v
    WHERE v."userId" IN (SELECT "userId" FROM "old_rows") AND NOT EXISTS (SELECT 1 FROM "user" AS u WHERE u."id" = v."userId");
  END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION "public_content_version_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "public_content_version" SET "version" = pg_current_xact_id()::text::bigint;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "public_content_version_insert" AFTER INSERT ON "blog"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "public_content_version_bump"();
CREATE TRIGGER "public_content_version_update" AFTER UPDATE ON "blog"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "public_content_version_bump"();
CREATE TRIGGER "public_content_version_delete" AFTER DELETE ON "blog"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "public_content_version_bump"();
CREATE TRIGGER "public_content_version_truncate" AFTER TRUNCATE ON "blog"
  FOR EACH STATEMENT EXECUTE FUNCTION "public_content_version_truncate"();

-- Accounts that have public blogs before this migration.
INSERT INTO "public_content_version" ("userId", "version")
SELECT DISTINCT "userId", pg_current_xact_id()::text::bigint FROM "blog" WHERE "isPublic";
