-- Authors on the public blog (docs/public-blog.md, Authors): a person's bio, shown with their name
-- and picture on the posts they author and on their author page /{handle}/authors/{their handle}.

-- AlterTable
ALTER TABLE "user" ADD COLUMN     "bio" TEXT NOT NULL DEFAULT '';

-- CreateIndex: a person's posts across publications (their author pages; the pages to remake when
-- they change their name, bio, picture or handle, below).
CREATE INDEX "blog_authors_idx" ON "blog" USING GIN ("authors");

-- A blog always has an author: written without one (plain SQL, a seed), its publication's founder
-- (the person whose id is the publication's), as the publications migration backfilled every blog.
CREATE FUNCTION "blog_default_authors"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF COALESCE(cardinality(NEW."authors"), 0) = 0 THEN
    NEW."authors" := ARRAY[NEW."userId"];
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "blog_default_authors" BEFORE INSERT OR UPDATE OF "authors" ON "blog"
  FOR EACH ROW EXECUTE FUNCTION "blog_default_authors"();

-- A person's name, bio, picture and handle show on every public post they author and on their
-- author pages, in whichever publication: changing one (or deleting the person) moves the public
-- content version of each publication with a public post of theirs, of each they own (whose pages
-- are titled after its owner while it has no title: docs/publication.md), and of their own (whose
-- id is theirs) as before, so its cached pages are remade at the next request. On deletion the
-- person_deletion migration's trigger has already taken the publications they own (BEFORE
-- DELETE); those where they only wrote remain, and stop naming them. The same function
-- serves the publication_triggers migration's trigger on a publication's new handle (NEW is the
-- publication then: its own id, and no blog names it as an author).
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

DROP TRIGGER "public_content_owner_renamed" ON "user";
CREATE TRIGGER "public_content_owner_renamed" AFTER UPDATE OF "name", "handle", "image", "bio" ON "user"
  FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."handle" IS DISTINCT FROM NEW."handle" OR OLD."image" IS DISTINCT FROM NEW."image" OR OLD."bio" IS DISTINCT FROM NEW."bio")
  EXECUTE FUNCTION "public_content_owner_renamed"();
CREATE TRIGGER "public_content_owner_deleted" AFTER DELETE ON "user"
  FOR EACH ROW EXECUTE FUNCTION "public_content_owner_renamed"();
