-- CreateTable
CREATE TABLE "blog_slug_redirect" (
    "userId" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "blogId" TEXT NOT NULL,

    CONSTRAINT "blog_slug_redirect_pkey" PRIMARY KEY ("userId","slug")
);

-- CreateIndex
CREATE INDEX "blog_slug_redirect_blogId_idx" ON "blog_slug_redirect"("blogId");

-- AddForeignKey
ALTER TABLE "blog_slug_redirect" ADD CONSTRAINT "blog_slug_redirect_blogId_fkey" FOREIGN KEY ("blogId") REFERENCES "blog"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A blog's old public addresses (docs/public-blog.md, Moved blogs), kept by triggers so that every
-- writer keeps them (API, dashboard, CLI import, scheduled publishing, plain SQL). A blog that has
-- ever been public (publishedAt, kept across unpublishing) leaves its old slug pointing at itself
-- when its slug changes; a blog taking a slug, created or renamed, ends the redirect from it, so a
-- slug never both names a blog and leads elsewhere. Ending a redirect to a public blog changes the
-- public site even when no public row is written (a draft takes the slug): the account's public
-- content version moves then, as the statement trigger moves it for public rows.
CREATE FUNCTION "blog_slug_redirect_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
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
$$;

CREATE TRIGGER "blog_slug_redirect_insert" AFTER INSERT ON "blog"
  FOR EACH ROW EXECUTE FUNCTION "blog_slug_redirect_keep"();
CREATE TRIGGER "blog_slug_redirect_update" AFTER UPDATE OF "blogSlug" ON "blog"
  FOR EACH ROW WHEN (OLD."blogSlug" IS DISTINCT FROM NEW."blogSlug") EXECUTE FUNCTION "blog_slug_redirect_keep"();
