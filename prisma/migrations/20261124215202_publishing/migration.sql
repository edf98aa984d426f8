-- CreateEnum
CREATE TYPE "BlogStatus" AS ENUM ('draft', 'scheduled', 'published');

-- DropIndex
DROP INDEX "blog_userId_isPublic_createdAt_id_idx";

-- AlterTable
ALTER TABLE "blog" ADD COLUMN     "publishAt" TIMESTAMPTZ(3),
ADD COLUMN     "publishedAt" TIMESTAMPTZ(3),
ADD COLUMN     "status" "BlogStatus" NOT NULL DEFAULT 'draft',
ADD COLUMN     "tagSlugs" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "tags" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable (the counters are rebuilt by status below)
DELETE FROM "blog_day_count";
ALTER TABLE "blog_day_count" DROP CONSTRAINT "blog_day_count_pkey",
DROP COLUMN "isPublic",
ADD COLUMN     "status" "BlogStatus" NOT NULL,
ADD CONSTRAINT "blog_day_count_pkey" PRIMARY KEY ("userId", "day", "status");

-- CreateTable
CREATE TABLE "blog_revision" (
    "id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "blogId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "changedBy" TEXT NOT NULL,
    "changedByName" TEXT,
    "changedFields" TEXT[],
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "seoTitle" TEXT NOT NULL,
    "seoDescription" TEXT NOT NULL,
    "tags" TEXT[],

    CONSTRAINT "blog_revision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "preview_link" (
    "id" TEXT NOT NULL,
    "blogId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "preview_link_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "blog_revision_blogId_seq_idx" ON "blog_revision"("blogId", "seq" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "preview_link_tokenHash_key" ON "preview_link"("tokenHash");

-- CreateIndex
CREATE INDEX "preview_link_blogId_createdAt_idx" ON "preview_link"("blogId", "createdAt");

-- CreateIndex
CREATE INDEX "blog_userId_allowApiAccess_status_createdAt_id_idx" ON "blog"("userId", "allowApiAccess", "status", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "blog_userId_allowApiAccess_publishedAt_id_idx" ON "blog"("userId", "allowApiAccess", "publishedAt", "id");

-- CreateIndex
CREATE INDEX "blog_userId_allowApiAccess_updatedAt_id_idx" ON "blog"("userId", "allowApiAccess", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "blog_userId_allowApiAccess_title_id_idx" ON "blog"("userId", "allowApiAccess", "title", "id");

-- CreateIndex
CREATE INDEX "blog_userId_isPublic_publishedAt_id_idx" ON "blog"("userId", "isPublic", "publishedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "blog_tagSlugs_idx" ON "blog" USING GIN ("tagSlugs");

-- CreateIndex
CREATE INDEX "blog_publishAt_idx" ON "blog"("publishAt");

-- AddForeignKey
ALTER TABLE "blog_revision" ADD CONSTRAINT "blog_revision_blogId_fkey" FOREIGN KEY ("blogId") REFERENCES "blog"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "preview_link" ADD CONSTRAINT "preview_link_blogId_fkey" FOREIGN KEY ("blogId") REFERENCES "blog"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Publishing, tags and revisions (docs/api.md, publishing). Triggers on "blog" keep every rule
-- whoever writes (API, dashboard, CLI import, a scheduled job, direct SQL), in the writing
-- transaction.

-- A tag's slug, as src/shared/tags.ts computes it: accents dropped, lowercase, runs of anything
-- but a-z and 0-9 as one hyphen, none at the ends ("Next.js" -> "next-js").
CREATE FUNCTION "blog_tag_slug"("tag" TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT trim(BOTH '-' FROM regexp_replace(lower(regexp_replace(normalize("tag", NFKD), '[\u0300-\u036f]', '', 'g')), '[^a-z0-9]+', '-', 'g'))
$$;

CREATE FUNCTION "blog_tag_slugs"("tags" TEXT[]) RETURNS TEXT[] LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE(array_agg(DISTINCT "slug"), '{}') FROM (SELECT "blog_tag_slug"("t") AS "slug" FROM unnest("tags") AS "t") AS "s" WHERE "slug" <> ''
$$;

-- Derived columns: tag slugs; status from isPublic and publishAt. Becoming public clears publishAt
-- and stamps publishedAt once: the time of the write that publishes (its updatedAt when it sets
-- one, as the app does; a blog created public: its creation time).
CREATE FUNCTION "blog_derive_state"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."tags" := COALESCE(NEW."tags", '{}');
  NEW."tagSlugs" := "blog_tag_slugs"(NEW."tags");
  IF NEW."isPublic" THEN
    NEW."publishAt" := NULL;
    NEW."publishedAt" := COALESCE(NEW."publishedAt", CASE
      WHEN TG_OP = 'INSERT' THEN NEW."createdAt"
      WHEN NEW."updatedAt" IS DISTINCT FROM OLD."updatedAt" THEN NEW."updatedAt"
      ELSE now()
    END);
  END IF;
  NEW."status" := CASE WHEN NEW."isPublic" THEN 'published' WHEN NEW."publishAt" IS NOT NULL THEN 'scheduled' ELSE 'draft' END;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "blog_derive_state" BEFORE INSERT OR UPDATE ON "blog"
  FOR EACH ROW EXECUTE FUNCTION "blog_derive_state"();

-- The per-day counters, by status instead of visibility (public is status published).
CREATE OR REPLACE FUNCTION "blog_day_count_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "blog_day_count" ("userId", "day", "status", "count")
    SELECT "userId", ("createdAt" AT TIME ZONE 'UTC')::date, "status", count(*)::int
    FROM "new_rows" WHERE "allowApiAccess"
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("userId", "day", "status") DO UPDATE SET "count" = "blog_day_count"."count" + EXCLUDED."count";
    RETURN NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    -- An update that changes no counted column (title, content...) has equal old and new keys,
    -- whose deltas cancel: nothing is written.
    INSERT INTO "blog_day_count" ("userId", "day", "status", "count")
    SELECT "userId", "day", "status", sum("delta")::int
    FROM (
      SELECT "userId", ("createdAt" AT TIME ZONE 'UTC')::date AS "day", "status", -1 AS "delta"
      FROM "old_rows" WHERE "allowApiAccess"
      UNION ALL
      SELECT "userId", ("createdAt" AT TIME ZONE 'UTC')::date, "status", 1
      FROM "new_rows" WHERE "allowApiAccess"
    ) AS "change"
    GROUP BY 1, 2, 3 HAVING sum("delta") <> 0 ORDER BY 1, 2, 3
    ON CONFLICT ("userId", "day", "status") DO UPDATE SET "count" = "blog_day_count"."count" + EXCLUDED."count";
  ELSE
    INSERT INTO "blog_day_count" ("userId", "day", "status", "count")
    SELECT "userId", ("createdAt" AT TIME ZONE 'UTC')::date, "status", -count(*)::int
    FROM "old_rows" WHERE "allowApiAccess"
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("userId", "day", "status") DO UPDATE SET "count" = "blog_day_count"."count" + EXCLUDED."count";
  END IF;
  -- Counters that dropped to zero carry nothing: remove them (deleted blogs, deleted accounts).
  DELETE FROM "blog_day_count" AS c
  USING (SELECT DISTINCT "userId", ("createdAt" AT TIME ZONE 'UTC')::date AS "day", "status" FROM "old_rows") AS o
  WHERE c."count" = 0 AND c."userId" = o."userId" AND c."day" = o."day" AND c."status" = o."status";
  RETURN NULL;
END;
$$;

-- Blogs that exist before this migration: public ones were published when created, as far as
-- anyone knows; then the counters, exactly.
UPDATE "blog" SET "publishedAt" = "createdAt" WHERE "isPublic";
DELETE FROM "blog_day_count";
INSERT INTO "blog_day_count" ("userId", "day", "status", "count")
SELECT "userId", ("createdAt" AT TIME ZONE 'UTC')::date, "status", count(*)::int
FROM "blog" WHERE "allowApiAccess"
GROUP BY 1, 2, 3;

-- A blog as the API shows it: the one definition that the list, the single reads, the writes'
-- answers and the webhook payloads all use (src/server/blogs/blog-view.ts). json, not jsonb: its
-- keys stay in this order, the API's. PL/pgSQL, not SQL: an SQL function is inlined into every
-- statement that calls it, its body parsed again at each planning, which made the blog list's
-- statement a quarter slower (bench/README.md, "Publishing"); PL/pgSQL plans it once per connection.
CREATE FUNCTION "blog_api_view"("b" "blog") RETURNS JSON LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN json_build_object(
    'id', "b"."id", 'title', "b"."title", 'blogSlug', "b"."blogSlug", 'description', "b"."description",
    'content', "b"."content", 'isPublic', "b"."isPublic", 'allowApiAccess', "b"."allowApiAccess",
    'seoTitle', "b"."seoTitle", 'seoDescription', "b"."seoDescription", 'tags', to_json(COALESCE("b"."tags", '{}')),
    'status', "b"."status", 'publishAt', "webhook_iso_time"("b"."publishAt"), 'publishedAt', "webhook_iso_time"("b"."publishedAt"),
    'createdAt', "webhook_iso_time"("b"."createdAt"), 'updatedAt', "webhook_iso_time"("b"."updatedAt"));
END;
$$;

-- Whether graphile-worker's schema is installed (the server installs it when it starts; jobs not
-- queued before then are caught up by its start-up sweeps).
CREATE FUNCTION "job_engine_installed"() RETURNS BOOLEAN LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace
    WHERE n.nspname = 'graphile_worker' AND p.proname = 'add_job'
  )
$$;

-- Events: a publish or unpublish (isPublic flips) is blog.published / blog.unpublished; a new
-- publishAt is blog.scheduled; blog.updated when another field the API shows changed (the
-- publication fields and updatedAt alone are no edit) or a schedule was cancelled. So a scheduled
-- publication is one blog.published and nothing else.
CREATE OR REPLACE FUNCTION "webhook_blog_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "publication" TEXT[] := ARRAY['updatedAt', 'isPublic', 'status', 'publishAt', 'publishedAt'];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "webhook_record_event"(NEW."userId", 'blog.created', "blog_api_view"(NEW)::jsonb);
    IF NEW."publishAt" IS NOT NULL THEN
      PERFORM "webhook_record_event"(NEW."userId", 'blog.scheduled', "blog_api_view"(NEW)::jsonb);
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "webhook_record_event"(OLD."userId", 'blog.deleted', jsonb_build_object('id', OLD."id"));
  ELSE
    IF ("blog_api_view"(OLD)::jsonb - "publication") IS DISTINCT FROM ("blog_api_view"(NEW)::jsonb - "publication")
       OR (OLD."publishAt" IS NOT NULL AND NEW."publishAt" IS NULL AND NOT NEW."isPublic") THEN
      PERFORM "webhook_record_event"(NEW."userId", 'blog.updated', "blog_api_view"(NEW)::jsonb);
    END IF;
    IF NEW."publishAt" IS NOT NULL AND NEW."publishAt" IS DISTINCT FROM OLD."publishAt" THEN
      PERFORM "webhook_record_event"(NEW."userId", 'blog.scheduled', "blog_api_view"(NEW)::jsonb);
    END IF;
    IF OLD."isPublic" IS DISTINCT FROM NEW."isPublic" THEN
      PERFORM "webhook_record_event"(NEW."userId", CASE WHEN NEW."isPublic" THEN 'blog.published' ELSE 'blog.unpublished' END, "blog_api_view"(NEW)::jsonb);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;

DROP FUNCTION "webhook_blog_view"("blog");

-- One durable job per scheduled blog (key blog_publish:<id>): replaced when rescheduled, removed
-- when cancelled, published or deleted. The job publishes only a blog still due (src/server/blogs/scheduled-publishing.ts).
CREATE FUNCTION "blog_schedule_job"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT "job_engine_installed"() THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    PERFORM graphile_worker.remove_job('blog_publish:' || OLD."id");
  ELSIF NEW."publishAt" IS NOT NULL THEN
    PERFORM graphile_worker.add_job('blog_publish', json_build_object('blogId', NEW."id"), run_at := NEW."publishAt",
      job_key := 'blog_publish:' || NEW."id", job_key_mode := 'replace', max_attempts := 25);
  ELSE
    PERFORM graphile_worker.remove_job('blog_publish:' || NEW."id");
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "blog_schedule_job_insert" AFTER INSERT ON "blog"
  FOR EACH ROW WHEN (NEW."publishAt" IS NOT NULL) EXECUTE FUNCTION "blog_schedule_job"();
CREATE TRIGGER "blog_schedule_job_update" AFTER UPDATE OF "publishAt", "isPublic" ON "blog"
  FOR EACH ROW WHEN (OLD."publishAt" IS DISTINCT FROM NEW."publishAt") EXECUTE FUNCTION "blog_schedule_job"();
CREATE TRIGGER "blog_schedule_job_delete" AFTER DELETE ON "blog"
  FOR EACH ROW WHEN (OLD."publishAt" IS NOT NULL) EXECUTE FUNCTION "blog_schedule_job"();

-- Revisions: a change to the text fields (or a new blog) stores the new text with what made the
-- change: the app names it for the transaction (set_config('blogmgr.change_source', ...),
-- src/server/blogs/change-source.ts); anything else is "database". The newest 100 per blog stay.
CREATE FUNCTION "blog_record_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "source" JSONB := NULLIF(current_setting('blogmgr.change_source', true), '')::jsonb;
  "changed" TEXT[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    "changed" := ARRAY['title', 'description', 'content', 'seoTitle', 'seoDescription', 'tags'];
  ELSE
    "changed" := array_remove(ARRAY[
      CASE WHEN OLD."title" IS DISTINCT FROM NEW."title" THEN 'title' END,
      CASE WHEN OLD."description" IS DISTINCT FROM NEW."description" THEN 'description' END,
      CASE WHEN OLD."content" IS DISTINCT FROM NEW."content" THEN 'content' END,
      CASE WHEN OLD."seoTitle" IS DISTINCT FROM NEW."seoTitle" THEN 'seoTitle' END,
      CASE WHEN OLD."seoDescription" IS DISTINCT FROM NEW."seoDescription" THEN 'seoDescription' END,
      CASE WHEN OLD."tags" IS DISTINCT FROM NEW."tags" THEN 'tags' END
    ], NULL);
    IF cardinality("changed") = 0 THEN
      RETURN NULL;
    END IF;
  END IF;
  INSERT INTO "blog_revision" ("id", "blogId", "createdAt", "changedBy", "changedByName", "changedFields",
    "title", "description", "content", "seoTitle", "seoDescription", "tags")
  VALUES ('rev_' || replace(gen_random_uuid()::text, '-', ''), NEW."id", now(), COALESCE("source"->>'by', 'database'), "source"->>'name', "changed",
    NEW."title", NEW."description", NEW."content", NEW."seoTitle", NEW."seoDescription", NEW."tags");
  DELETE FROM "blog_revision" WHERE "blogId" = NEW."id" AND "seq" <= (
    SELECT "seq" FROM "blog_revision" WHERE "blogId" = NEW."id" ORDER BY "seq" DESC OFFSET 100 LIMIT 1
  );
  RETURN NULL;
END;
$$;

CREATE TRIGGER "blog_record_revision" AFTER INSERT OR UPDATE ON "blog"
  FOR EACH ROW EXECUTE FUNCTION "blog_record_revision"();

-- Blogs that exist before this migration start their history with their current text.
INSERT INTO "blog_revision" ("id", "blogId", "createdAt", "changedBy", "changedFields", "title", "description", "content", "seoTitle", "seoDescription", "tags")
SELECT 'rev_' || replace(gen_random_uuid()::text, '-', ''), "id", "updatedAt", 'database',
  ARRAY['title', 'description', 'content', 'seoTitle', 'seoDescription', 'tags'], "title", "description", "content", "seoTitle", "seoDescription", "tags"
FROM "blog";
