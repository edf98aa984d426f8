-- The dashboard editor's session (src/server/blogs/change-source.ts): a session's saves fold into one revision.
ALTER TABLE "blog_revision" ADD COLUMN "editSession" TEXT;

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
