-- Related posts (docs/public-blog.md, The end of a post): a post's page lists the account's other
-- public blogs sharing a tag. The GIN index on "tagSlugs" alone holds every account's blogs, so a
-- common tag would read other accounts' entries too; this one holds public blogs only, keyed by
-- account and tag (btree_gin gives GIN the text "userId"), so the candidates are exactly the
-- account's public blogs sharing a tag.
CREATE EXTENSION IF NOT EXISTS "btree_gin";

CREATE INDEX "blog_public_tag_slugs_idx" ON "blog" USING GIN ("userId", "tagSlugs") WHERE "isPublic";

-- The author box shows the owner's picture: changing it moves the public content version, as
-- changing the name or handle does (the public_cache migration).
DROP TRIGGER "public_content_owner_renamed" ON "user";
CREATE TRIGGER "public_content_owner_renamed" AFTER UPDATE OF "name", "handle", "image" ON "user"
  FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."handle" IS DISTINCT FROM NEW."handle" OR OLD."image" IS DISTINCT FROM NEW."image")
  EXECUTE FUNCTION "public_content_owner_renamed"();
