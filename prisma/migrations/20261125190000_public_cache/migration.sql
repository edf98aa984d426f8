-- AlterTable
ALTER TABLE "public_content_version" ADD COLUMN     "changedAt" TIMESTAMPTZ(0) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- The public pages' shared cache (docs/public-blog.md, The cache): every move of an account's
-- version is also announced on the channel blogmgr_public_content, the account's id as payload,
-- delivered to the listening servers when the writing transaction commits (PostgreSQL sends one
-- notice per distinct payload and transaction). "changedAt" is the pages' Last-Modified: whole
-- seconds, since HTTP dates are, and strictly growing per account (rows are locked by the upsert,
-- so writers take turns), so that a client revalidating by date alone never misses a change.
CREATE FUNCTION "public_content_version_move"("touched" TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "public_content_version" AS v ("userId", "version", "changedAt")
  SELECT "id", pg_current_xact_id()::text::bigint, date_trunc('second', clock_timestamp())
  FROM unnest("touched") AS "id" ORDER BY 1
  ON CONFLICT ("userId") DO UPDATE SET
    "version" = EXCLUDED."version",
    "changedAt" = GREATEST(EXCLUDED."changedAt", v."changedAt" + interval '1 second');
  PERFORM pg_notify('blogmgr_public_content', "id") FROM unnest("touched") AS "id";
END;
$$;

-- A write touches an account's public pages when a row is public before or after it.
CREATE OR REPLACE FUNCTION "public_content_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "touched" TEXT[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT "userId") INTO "touched" FROM "new_rows" WHERE "isPublic";
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg("userId") INTO "touched" FROM (
      SELECT "userId" FROM "old_rows" WHERE "isPublic"
      UNION
      SELECT "userId" FROM "new_rows" WHERE "isPublic"
    ) AS "t";
  ELSE
    -- An account's deletion deletes its blogs too (cascade): its row goes, it is not bumped, but
    -- its pages are announced gone.
    SELECT array_agg(DISTINCT "userId") INTO "touched" FROM "old_rows" AS o
    WHERE "isPublic" AND EXISTS (SELECT 1 FROM "user" AS u WHERE u."id" = o."userId");
    DELETE FROM "public_content_version" AS v
    WHERE v."userId" IN (SELECT "userId" FROM "old_rows") AND NOT EXISTS (SELECT 1 FROM "user" AS u WHERE u."id" = v."userId");
    PERFORM pg_notify('blogmgr_public_content', "userId") FROM (SELECT DISTINCT "userId" FROM "old_rows") AS "gone"
    WHERE NOT EXISTS (SELECT 1 FROM "user" AS u WHERE u."id" = "gone"."userId");
  END IF;
  IF "touched" IS NOT NULL THEN
    PERFORM "public_content_version_move"("touched");
  END IF;
  RETURN NULL;
END;
$$;

-- A truncation moves every account; '*' tells the servers to forget every page.
CREATE OR REPLACE FUNCTION "public_content_version_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "public_content_version" SET "version" = pg_current_xact_id()::text::bigint, "changedAt" = GREATEST(date_trunc('second', clock_timestamp()), "changedAt" + interval '1 second');
  PERFORM pg_notify('blogmgr_public_content', '*');
  RETURN NULL;
END;
$$;

-- The owner's name and handle are on every public page: renaming an account with public pages moves its version.
CREATE FUNCTION "public_content_owner_renamed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "public_content_version" WHERE "userId" = NEW."id") THEN
    PERFORM "public_content_version_move"(ARRAY[NEW."id"]);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "public_content_owner_renamed" AFTER UPDATE OF "name", "handle" ON "user"
  FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."handle" IS DISTINCT FROM NEW."handle")
  EXECUTE FUNCTION "public_content_owner_renamed"();
