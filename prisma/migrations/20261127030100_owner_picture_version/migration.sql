-- The author box at the end of a post (docs/public-blog.md, The end of a post) shows the owner's
-- picture: changing it moves the public content version, as changing the name or handle does (the
-- public_cache migration).
DROP TRIGGER "public_content_owner_renamed" ON "user";
CREATE TRIGGER "public_content_owner_renamed" AFTER UPDATE OF "name", "handle", "image" ON "user"
  FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."handle" IS DISTINCT FROM NEW."handle" OR OLD."image" IS DISTINCT FROM NEW."image")
  EXECUTE FUNCTION "public_content_owner_renamed"();
