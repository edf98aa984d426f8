-- The current definition of every function and trigger of the app's schema, as PostgreSQL prints
-- them (pg_get_functiondef, pg_get_triggerdef): migrations under prisma/migrations create them and
-- later ones may replace them, so this is where to read them. Nothing applies this file: a
-- migration that creates, replaces or drops a function or trigger updates it too, and
-- tests/db/functions.test.ts checks it against the migrated database (docs/database.md).
-- Functions by name, then triggers by table and name.

CREATE OR REPLACE FUNCTION public.audit_log_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'DELETE' AND (
    (current_setting('blogmgr.audit_purge', true) = 'on' AND OLD."at" < now() - interval '180 days')
    OR NOT EXISTS (SELECT 1 FROM "organization" WHERE "id" = OLD."userId")
  ) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$function$;

CREATE OR REPLACE FUNCTION public.audit_log_publication_gone()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  DELETE FROM "audit_log" WHERE "userId" = OLD."id";
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE FUNCTION public.audit_record()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  "source" JSONB := COALESCE(NULLIF(current_setting('blogmgr.change_source', true), '')::jsonb, '{}');
  "target_type" TEXT := TG_ARGV[0];
  "ignored" TEXT[] := TG_ARGV[3:];
  "old_row" JSONB;
  "new_row" JSONB;
  "row" JSONB;
  "fields" TEXT[] := '{}';
  "verb" TEXT;
BEGIN
  IF TG_OP <> 'INSERT' THEN "old_row" := to_jsonb(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN "new_row" := to_jsonb(NEW); END IF;
  "row" := COALESCE("new_row", "old_row");
  -- The publication's own deletion cascading here: its entries go with it, nothing to record.
  IF NOT EXISTS (SELECT 1 FROM "organization" WHERE "id" = "row"->>TG_ARGV[1]) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    "verb" := 'created';
    SELECT COALESCE(array_agg("k" ORDER BY "k"), '{}') INTO "fields" FROM jsonb_object_keys("new_row" - "ignored") AS "k"
    WHERE "k" NOT IN (TG_ARGV[1], TG_ARGV[2]) AND jsonb_typeof("new_row"->"k") <> 'null';
  ELSIF TG_OP = 'DELETE' THEN
    "verb" := 'deleted';
  ELSE
    SELECT COALESCE(array_agg("k" ORDER BY "k"), '{}') INTO "fields" FROM jsonb_object_keys("new_row" - "ignored") AS "k"
    WHERE "new_row"->"k" IS DISTINCT FROM "old_row"->"k";
    "verb" := CASE
      WHEN "target_type" = 'blog' AND "old_row"->'isPublic' <> "new_row"->'isPublic' THEN
        CASE WHEN ("new_row"->>'isPublic')::boolean THEN 'published' ELSE 'unpublished' END
      WHEN "target_type" = 'blog' AND "new_row"->>'publishAt' IS NOT NULL AND "old_row"->>'publishAt' IS DISTINCT FROM "new_row"->>'publishAt' THEN 'scheduled'
      WHEN "target_type" = 'api_key' AND "old_row"->>'rolledAt' IS NULL AND "new_row"->>'rolledAt' IS NOT NULL THEN 'rolled'
      WHEN "target_type" = 'api_key' AND "old_row"->>'deactivatedAt' IS NULL AND "new_row"->>'deactivatedAt' IS NOT NULL THEN 'deactivated'
      WHEN "target_type" = 'webhook' AND "old_row"->>'secret' IS DISTINCT FROM "new_row"->>'secret' THEN 'secret_rolled'
      WHEN "target_type" = 'member' AND "old_row"->>'role' IS DISTINCT FROM "new_row"->>'role' THEN 'role_changed'
      WHEN "target_type" = 'invitation' AND "old_row"->>'status' IS DISTINCT FROM "new_row"->>'status' THEN "new_row"->>'status'
      ELSE 'updated'
    END;
    -- Only ignored columns changed (a key's last use, an import's progress): nothing to record.
    IF cardinality("fields") = 0 AND "verb" = 'updated' THEN
      RETURN NULL;
    END IF;
  END IF;
  INSERT INTO "audit_log" ("userId", "actorKind", "actorId", "actorName", "action", "targetType", "targetId",
    "ip", "userAgent", "requestId", "changedFields")
  VALUES ("row"->>TG_ARGV[1],
    COALESCE("source"->>'actorKind', CASE "source"->>'by'
      WHEN 'api_key' THEN 'api_key' WHEN 'cli' THEN 'cli' WHEN 'import' THEN 'job' WHEN 'owner' THEN 'member' WHEN 'restore' THEN 'member'
      ELSE 'database' END),
    "source"->>'actorId', COALESCE("source"->>'actorName', "source"->>'name'),
    "target_type" || '.' || "verb", "target_type", "row"->>TG_ARGV[2],
    "source"->>'ip', "source"->>'userAgent', "source"->>'requestId', "fields");
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE FUNCTION public.blog_api_view(b blog)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN json_build_object(
    'id', "b"."id", 'title', "b"."title", 'blogSlug', "b"."blogSlug", 'description', "b"."description",
    'content', "b"."content", 'isPublic', "b"."isPublic", 'allowApiAccess', "b"."allowApiAccess",
    'seoTitle', "b"."seoTitle", 'seoDescription', "b"."seoDescription", 'tags', to_json(COALESCE("b"."tags", '{}')),
    'coverImage', "b"."coverImageId",
    'emailSubscribers', "b"."emailSubscribers", 'emailedAt', "webhook_iso_time"("b"."emailedAt"),
    'status', "b"."status", 'publishAt', "webhook_iso_time"("b"."publishAt"), 'publishedAt', "webhook_iso_time"("b"."publishedAt"),
    'createdAt', "webhook_iso_time"("b"."createdAt"), 'updatedAt', "webhook_iso_time"("b"."updatedAt"));
END;
$function$;

CREATE OR REPLACE FUNCTION public.blog_day_count_apply()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION public.blog_day_count_truncate()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  DELETE FROM "blog_day_count";
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE FUNCTION public.blog_default_authors()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF COALESCE(cardinality(NEW."authors"), 0) = 0 THEN
    NEW."authors" := ARRAY[NEW."userId"];
  END IF;
  RETURN NEW;
END;
$function$;

CREATE OR REPLACE FUNCTION public.blog_derive_state()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  NEW."tags" := COALESCE(NEW."tags", '{}');
  NEW."tagSlugs" := "blog_tag_slugs"(NEW."tags");
  IF NEW."isPublic" AND NEW."emailSubscribers" AND NEW."emailedAt" IS NULL
     AND (TG_OP = 'INSERT' OR OLD."publishedAt" IS NULL) THEN
    NEW."emailedAt" := now();
  END IF;
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
$function$;

CREATE OR REPLACE FUNCTION public.blog_image_uses()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM "blog_image" WHERE "blogId" = NEW."id";
  END IF;
  INSERT INTO "blog_image" ("blogId", "imageId")
    SELECT DISTINCT NEW."id", m[1] FROM regexp_matches(NEW."content", '/images/([a-z0-9]{20,40})/', 'g') AS m;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE FUNCTION public.blog_newsletter_start()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO "newsletter" ("blogId", "userId", "total", "startedAt")
  VALUES (NEW."id", NEW."userId",
    (SELECT count(*) FROM "subscriber" WHERE "userId" = NEW."userId" AND "status" = 'active' AND "confirmedAt" <= NEW."emailedAt"),
    NEW."emailedAt")
  ON CONFLICT ("blogId") DO NOTHING;
  IF "job_engine_installed"() THEN
    PERFORM graphile_worker.add_job('newsletter_send', json_build_object('blogId', NEW."id"),
      job_key := 'newsletter_send:' || NEW."id", max_attempts := 25);
  END IF;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE FUNCTION public.blog_record_revision()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
    -- The dashboard editor's session: its saves within 10 minutes of its own newest revision update that one.
    IF "source"->>'editSession' IS NOT NULL THEN
      UPDATE "blog_revision" AS r SET "createdAt" = now(),
        "changedFields" = ARRAY(SELECT f FROM unnest(ARRAY['title', 'description', 'content', 'seoTitle', 'seoDescription', 'tags']) AS f
                                WHERE f = ANY (r."changedFields" || "changed")),
        "title" = NEW."title", "description" = NEW."description", "content" = NEW."content",
        "seoTitle" = NEW."seoTitle", "seoDescription" = NEW."seoDescription", "tags" = NEW."tags"
      WHERE r."id" = (SELECT "id" FROM "blog_revision" WHERE "blogId" = NEW."id" ORDER BY "seq" DESC LIMIT 1)
        AND r."editSession" = "source"->>'editSession' AND r."createdAt" > now() - interval '10 minutes';
      IF FOUND THEN
        RETURN NULL;
      END IF;
    END IF;
  END IF;
  INSERT INTO "blog_revision" ("id", "blogId", "createdAt", "changedBy", "changedByName", "changedFields",
    "title", "description", "content", "seoTitle", "seoDescription", "tags", "editSession")
  VALUES ('rev_' || replace(gen_random_uuid()::text, '-', ''), NEW."id", now(), COALESCE("source"->>'by', 'database'), "source"->>'name', "changed",
    NEW."title", NEW."description", NEW."content", NEW."seoTitle", NEW."seoDescription", NEW."tags", "source"->>'editSession');
  DELETE FROM "blog_revision" WHERE "blogId" = NEW."id" AND "seq" <= (
    SELECT "seq" FROM "blog_revision" WHERE "blogId" = NEW."id" ORDER BY "seq" DESC OFFSET 100 LIMIT 1
  );
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE FUNCTION public.blog_schedule_job()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION public.blog_search_vector(title text, tags text[], description text, content text)
 RETURNS tsvector
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
RETURN strip(to_tsvector('simple'::regconfig, ((((((title || ' '::text) || array_to_string(tags, ' '::text)) || ' '::text) || description) || ' '::text) || "left"(content, 100000))));

CREATE OR REPLACE FUNCTION public.blog_slug_redirect_keep()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  "ended_public" BOOLEAN;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD."publishedAt" IS NOT NULL THEN
    INSERT INTO "blog_slug_redirect" ("userId", "slug", "blogId") VALUES (OLD."userId", OLD."blogSlug", NEW."id")
    ON CONFLICT ("userId", "slug") DO UPDATE SET "blogId" = EXCLUDED."blogId";
  END IF;
  WITH "ended" AS (
    DELETE FROM "blog_slug_redirect" WHERE "userId" = NEW."userId" AND "slug" = NEW."blogSlug" RETURNING "blogId"
  )
  SELECT EXISTS (SELECT 1 FROM "ended" JOIN "blog" AS b ON b."id" = "ended"."blogId" WHERE b."isPublic") INTO "ended_public";
  IF "ended_public" AND NOT NEW."isPublic" AND NOT (TG_OP = 'UPDATE' AND OLD."isPublic") THEN
    PERFORM "public_content_version_move"(ARRAY[NEW."userId"]);
  END IF;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE FUNCTION public.blog_tag_slug(tag text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE STRICT
AS $function$
  SELECT trim(BOTH '-' FROM regexp_replace(lower(regexp_replace(normalize("tag", NFKD), '[\u0300-\u036f]', '', 'g')), '[^a-z0-9]+', '-', 'g'))
$function$;

CREATE OR REPLACE FUNCTION public.blog_tag_slugs(tags text[])
 RETURNS text[]
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT COALESCE(array_agg(DISTINCT "slug"), '{}') FROM (SELECT "blog_tag_slug"("t") AS "slug" FROM unnest("tags") AS "t") AS "s" WHERE "slug" <> ''
$function$;

CREATE OR REPLACE FUNCTION public.job_engine_installed()
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  SELECT EXISTS (
    SELECT 1 FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace
    WHERE n.nspname = 'graphile_worker' AND p.proname = 'add_job'
  )
$function$;

CREATE OR REPLACE FUNCTION public.public_content_owner_renamed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  "person" TEXT := CASE WHEN TG_OP = 'DELETE' THEN OLD."id" ELSE NEW."id" END;
  "touched" TEXT[];
BEGIN
  SELECT array_agg("id" ORDER BY "id") INTO "touched" FROM (
    SELECT "person" AS "id" WHERE TG_OP = 'UPDATE' OR EXISTS (SELECT 1 FROM "organization" AS o WHERE o."id" = "person")
    UNION
    SELECT m."organizationId" FROM "member" AS m WHERE m."userId" = "person" AND m."role" = 'owner'
    UNION
    SELECT b."userId" FROM "blog" AS b
    WHERE b."authors" @> ARRAY["person"] AND b."isPublic" AND EXISTS (SELECT 1 FROM "organization" AS o WHERE o."id" = b."userId")
  ) AS "t";
  IF "touched" IS NOT NULL THEN
    PERFORM "public_content_version_move"("touched");
  END IF;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE FUNCTION public.public_content_version_bump()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
    -- A publication's deletion deletes its blogs too (cascade): its row goes, it is not bumped, but
    -- its pages are announced gone.
    SELECT array_agg(DISTINCT "userId") INTO "touched" FROM "old_rows" AS o
    WHERE "isPublic" AND EXISTS (SELECT 1 FROM "organization" AS a WHERE a."id" = o."userId");
    DELETE FROM "public_content_version" AS v
    WHERE v."userId" IN (SELECT "userId" FROM "old_rows") AND NOT EXISTS (SELECT 1 FROM "organization" AS a WHERE a."id" = v."userId");
    PERFORM pg_notify('blogmgr_public_content', "userId") FROM (SELECT DISTINCT "userId" FROM "old_rows") AS "gone"
    WHERE NOT EXISTS (SELECT 1 FROM "organization" AS a WHERE a."id" = "gone"."userId");
  END IF;
  IF "touched" IS NOT NULL THEN
    PERFORM "public_content_version_move"("touched");
  END IF;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE FUNCTION public.public_content_version_move(touched text[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO "public_content_version" AS v ("userId", "version", "changedAt")
  SELECT "id", pg_current_xact_id()::text::bigint, date_trunc('second', clock_timestamp())
  FROM unnest("touched") AS "id" ORDER BY 1
  ON CONFLICT ("userId") DO UPDATE SET
    "version" = EXCLUDED."version",
    "changedAt" = GREATEST(EXCLUDED."changedAt", v."changedAt" + interval '1 second');
  PERFORM pg_notify('blogmgr_public_content', "id") FROM unnest("touched") AS "id";
END;
$function$;

CREATE OR REPLACE FUNCTION public.public_content_version_truncate()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE "public_content_version" SET "version" = pg_current_xact_id()::text::bigint, "changedAt" = GREATEST(date_trunc('second', clock_timestamp()), "changedAt" + interval '1 second');
  PERFORM pg_notify('blogmgr_public_content', '*');
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE FUNCTION public.publication_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF EXISTS (SELECT 1 FROM "organization" WHERE "id" = OLD."userId") THEN
      PERFORM "public_content_version_move"(ARRAY[OLD."userId"]);
    END IF;
  ELSE
    PERFORM "public_content_version_move"(ARRAY[NEW."userId"]);
  END IF;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE FUNCTION public.subscriber_api_view(s subscriber)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT jsonb_build_object(
    'id', "s"."id", 'email', "s"."email", 'name', "s"."name", 'status', "s"."status", 'source', "s"."source",
    'createdAt', "webhook_iso_time"("s"."createdAt"), 'confirmedAt', "webhook_iso_time"("s"."confirmedAt"),
    'unsubscribedAt', "webhook_iso_time"("s"."unsubscribedAt"))
$function$;

CREATE OR REPLACE FUNCTION public.user_delete_owned_publications()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  DELETE FROM "organization" AS o
  WHERE EXISTS (SELECT 1 FROM "member" AS m WHERE m."organizationId" = o."id" AND m."userId" = OLD."id" AND m."role" = 'owner');
  RETURN OLD;
END;
$function$;

CREATE OR REPLACE FUNCTION public.webhook_api_key_deactivated()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM "webhook_record_event"(NEW."userId", 'api_key.deactivated', "webhook_api_key_view"(NEW));
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE FUNCTION public.webhook_api_key_view(k api_key)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT jsonb_build_object(
    'id', "k"."id", 'name', "k"."name", 'description', "k"."description",
    'keyPrefix', "k"."keyPrefix", 'keySuffix', "k"."keySuffix", 'permissions', to_jsonb("k"."permissions"),
    'expiresAt', "webhook_iso_time"("k"."expiresAt"), 'deactivatedAt', "webhook_iso_time"("k"."deactivatedAt"),
    'createdAt', "webhook_iso_time"("k"."createdAt"))
$function$;

CREATE OR REPLACE FUNCTION public.webhook_blog_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  "publication" TEXT[] := ARRAY['updatedAt', 'isPublic', 'status', 'publishAt', 'publishedAt', 'emailedAt'];
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
$function$;

CREATE OR REPLACE FUNCTION public.webhook_iso_time(t timestamp with time zone)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  SELECT to_char("t" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$function$;

CREATE OR REPLACE FUNCTION public.webhook_record_event(p_user_id text, p_type text, p_data jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  "v_event_id" TEXT;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM "webhook_endpoint" WHERE "userId" = "p_user_id" AND "enabled" AND "p_type" = ANY ("eventTypes")
  ) THEN
    RETURN;
  END IF;
  "v_event_id" := 'msg_' || replace(gen_random_uuid()::text, '-', '');
  INSERT INTO "webhook_event" ("id", "userId", "type", "data") VALUES ("v_event_id", "p_user_id", "p_type", "p_data");
  IF EXISTS (
    SELECT 1 FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace
    WHERE n.nspname = 'graphile_worker' AND p.proname = 'add_job'
  ) THEN
    PERFORM graphile_worker.add_job('webhook_fanout', json_build_object('eventId', "v_event_id"), max_attempts := 10);
  END IF;
END;
$function$;

CREATE OR REPLACE FUNCTION public.webhook_subscriber_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NEW."status" = 'active' AND (TG_OP = 'INSERT' OR (OLD."status" <> 'active' AND OLD."confirmedAt" IS NULL)) THEN
    PERFORM "webhook_record_event"(NEW."userId", 'subscriber.created', "subscriber_api_view"(NEW));
  ELSIF TG_OP = 'UPDATE' AND NEW."status" = 'unsubscribed' AND OLD."status" <> 'unsubscribed' THEN
    PERFORM "webhook_record_event"(NEW."userId", 'subscriber.unsubscribed', "subscriber_api_view"(NEW));
  END IF;
  RETURN NULL;
END;
$function$;

CREATE TRIGGER audit_record AFTER INSERT OR DELETE OR UPDATE ON public.api_key FOR EACH ROW EXECUTE FUNCTION audit_record('api_key', 'userId', 'id', 'keyHash', 'lastUsedAt');
CREATE TRIGGER webhook_api_key_deactivated AFTER UPDATE OF "deactivatedAt" ON public.api_key FOR EACH ROW WHEN (((old."deactivatedAt" IS NULL) AND (new."deactivatedAt" IS NOT NULL))) EXECUTE FUNCTION webhook_api_key_deactivated();
CREATE TRIGGER audit_log_append_only BEFORE DELETE OR UPDATE ON public.audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON public.audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_record AFTER INSERT OR DELETE OR UPDATE ON public.blog FOR EACH ROW EXECUTE FUNCTION audit_record('blog', 'userId', 'id', 'updatedAt', 'searchVector', 'tagSlugs');
CREATE TRIGGER blog_day_count_delete AFTER DELETE ON public.blog REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION blog_day_count_apply();
CREATE TRIGGER blog_day_count_insert AFTER INSERT ON public.blog REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION blog_day_count_apply();
CREATE TRIGGER blog_day_count_truncate AFTER TRUNCATE ON public.blog FOR EACH STATEMENT EXECUTE FUNCTION blog_day_count_truncate();
CREATE TRIGGER blog_day_count_update AFTER UPDATE ON public.blog REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION blog_day_count_apply();
CREATE TRIGGER blog_default_authors BEFORE INSERT OR UPDATE OF authors ON public.blog FOR EACH ROW EXECUTE FUNCTION blog_default_authors();
CREATE TRIGGER blog_derive_state BEFORE INSERT OR UPDATE ON public.blog FOR EACH ROW EXECUTE FUNCTION blog_derive_state();
CREATE TRIGGER blog_image_uses_insert AFTER INSERT ON public.blog FOR EACH ROW WHEN ((new.content <> ''::text)) EXECUTE FUNCTION blog_image_uses();
CREATE TRIGGER blog_image_uses_update AFTER UPDATE OF content ON public.blog FOR EACH ROW WHEN ((old.content IS DISTINCT FROM new.content)) EXECUTE FUNCTION blog_image_uses();
CREATE TRIGGER blog_newsletter_start_insert AFTER INSERT ON public.blog FOR EACH ROW WHEN ((new."emailedAt" IS NOT NULL)) EXECUTE FUNCTION blog_newsletter_start();
CREATE TRIGGER blog_newsletter_start_update AFTER UPDATE ON public.blog FOR EACH ROW WHEN (((old."emailedAt" IS NULL) AND (new."emailedAt" IS NOT NULL))) EXECUTE FUNCTION blog_newsletter_start();
CREATE TRIGGER blog_record_revision AFTER INSERT OR UPDATE ON public.blog FOR EACH ROW EXECUTE FUNCTION blog_record_revision();
CREATE TRIGGER blog_schedule_job_delete AFTER DELETE ON public.blog FOR EACH ROW WHEN ((old."publishAt" IS NOT NULL)) EXECUTE FUNCTION blog_schedule_job();
CREATE TRIGGER blog_schedule_job_insert AFTER INSERT ON public.blog FOR EACH ROW WHEN ((new."publishAt" IS NOT NULL)) EXECUTE FUNCTION blog_schedule_job();
CREATE TRIGGER blog_schedule_job_update AFTER UPDATE OF "publishAt", "isPublic" ON public.blog FOR EACH ROW WHEN ((old."publishAt" IS DISTINCT FROM new."publishAt")) EXECUTE FUNCTION blog_schedule_job();
CREATE TRIGGER blog_slug_redirect_insert AFTER INSERT ON public.blog FOR EACH ROW EXECUTE FUNCTION blog_slug_redirect_keep();
CREATE TRIGGER blog_slug_redirect_update AFTER UPDATE OF "blogSlug" ON public.blog FOR EACH ROW WHEN ((old."blogSlug" IS DISTINCT FROM new."blogSlug")) EXECUTE FUNCTION blog_slug_redirect_keep();
CREATE TRIGGER public_content_version_delete AFTER DELETE ON public.blog REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public_content_version_bump();
CREATE TRIGGER public_content_version_insert AFTER INSERT ON public.blog REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public_content_version_bump();
CREATE TRIGGER public_content_version_truncate AFTER TRUNCATE ON public.blog FOR EACH STATEMENT EXECUTE FUNCTION public_content_version_truncate();
CREATE TRIGGER public_content_version_update AFTER UPDATE ON public.blog REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public_content_version_bump();
CREATE TRIGGER webhook_blog_change AFTER INSERT OR DELETE OR UPDATE ON public.blog FOR EACH ROW EXECUTE FUNCTION webhook_blog_change();
CREATE TRIGGER audit_record AFTER INSERT OR DELETE OR UPDATE ON public.import FOR EACH ROW EXECUTE FUNCTION audit_record('import', 'userId', 'id', 'processed', 'report');
CREATE TRIGGER audit_record AFTER INSERT OR DELETE OR UPDATE ON public.invitation FOR EACH ROW EXECUTE FUNCTION audit_record('invitation', 'organizationId', 'id');
CREATE TRIGGER audit_record AFTER INSERT OR DELETE OR UPDATE ON public.member FOR EACH ROW EXECUTE FUNCTION audit_record('member', 'organizationId', 'id');
CREATE TRIGGER audit_log_publication_gone AFTER DELETE ON public.organization FOR EACH ROW EXECUTE FUNCTION audit_log_publication_gone();
CREATE TRIGGER audit_record AFTER INSERT OR DELETE OR UPDATE ON public.organization FOR EACH ROW EXECUTE FUNCTION audit_record('publication', 'id', 'id');
CREATE TRIGGER public_content_account_renamed AFTER UPDATE OF handle ON public.organization FOR EACH ROW WHEN ((old.handle IS DISTINCT FROM new.handle)) EXECUTE FUNCTION public_content_owner_renamed();
CREATE TRIGGER audit_record AFTER INSERT OR DELETE OR UPDATE ON public.publication FOR EACH ROW EXECUTE FUNCTION audit_record('settings', 'userId', 'userId', 'updatedAt', 'domainToken');
CREATE TRIGGER publication_changed_delete AFTER DELETE ON public.publication FOR EACH ROW EXECUTE FUNCTION publication_changed();
CREATE TRIGGER publication_changed_insert AFTER INSERT ON public.publication FOR EACH ROW EXECUTE FUNCTION publication_changed();
CREATE TRIGGER publication_changed_update AFTER UPDATE ON public.publication FOR EACH ROW WHEN ((old.* IS DISTINCT FROM new.*)) EXECUTE FUNCTION publication_changed();
CREATE TRIGGER audit_record AFTER INSERT OR DELETE OR UPDATE ON public.subscriber FOR EACH ROW EXECUTE FUNCTION audit_record('subscriber', 'userId', 'id', 'confirmTokenHash', 'unsubscribeToken');
CREATE TRIGGER webhook_subscriber_change AFTER INSERT OR UPDATE OF status ON public.subscriber FOR EACH ROW EXECUTE FUNCTION webhook_subscriber_change();
CREATE TRIGGER public_content_owner_deleted AFTER DELETE ON public."user" FOR EACH ROW EXECUTE FUNCTION public_content_owner_renamed();
CREATE TRIGGER public_content_owner_renamed AFTER UPDATE OF name, handle, image, bio ON public."user" FOR EACH ROW WHEN (((old.name IS DISTINCT FROM new.name) OR (old.handle IS DISTINCT FROM new.handle) OR (old.image IS DISTINCT FROM new.image) OR (old.bio IS DISTINCT FROM new.bio))) EXECUTE FUNCTION public_content_owner_renamed();
CREATE TRIGGER audit_record AFTER INSERT OR DELETE OR UPDATE ON public.webhook_endpoint FOR EACH ROW EXECUTE FUNCTION audit_record('webhook', 'userId', 'id', 'secret', 'updatedAt');
CREATE TRIGGER user_delete_owned_publications BEFORE DELETE ON public."user" FOR EACH ROW EXECUTE FUNCTION user_delete_owned_publications();
