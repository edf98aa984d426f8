-- Teams (docs/teams.md): what an account owns now hangs off "organization" (the publication),
-- so the triggers that tell a deleted account from a living one look there, and a publication's
-- new handle moves its public content version as its owner's did.

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

CREATE TRIGGER public_content_account_renamed AFTER UPDATE OF handle ON public.organization FOR EACH ROW WHEN ((old.handle IS DISTINCT FROM new.handle)) EXECUTE FUNCTION public_content_owner_renamed();
