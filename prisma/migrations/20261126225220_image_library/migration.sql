-- Images as a library (docs/images.md): an upload's hash (the same bytes again are the same
-- image), its file name, whether its variants are still to be made, and which blogs' Markdown
-- names each image, kept by a trigger so "where is it used" is an index lookup.

ALTER TABLE "image" ADD COLUMN "fileName" TEXT,
ADD COLUMN "sha256" TEXT,
ADD COLUMN "variantsPending" BOOLEAN NOT NULL DEFAULT false;

-- Earlier uploads' names were not kept: their original's file name stands in.
UPDATE "image" SET "fileName" = "width" || 'x' || "height" || '.' || "format";
ALTER TABLE "image" ALTER COLUMN "fileName" SET NOT NULL;

CREATE UNIQUE INDEX "image_userId_sha256_key" ON "image"("userId", "sha256");

CREATE TABLE "blog_image" (
    "blogId" TEXT NOT NULL,
    "imageId" TEXT NOT NULL,

    CONSTRAINT "blog_image_pkey" PRIMARY KEY ("blogId","imageId")
);

CREATE INDEX "blog_image_imageId_idx" ON "blog_image"("imageId");

ALTER TABLE "blog_image" ADD CONSTRAINT "blog_image_blogId_fkey" FOREIGN KEY ("blogId") REFERENCES "blog"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The images a blog's Markdown names by their address (/images/{id}/{file}, src/shared/images.ts).
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

CREATE TRIGGER blog_image_uses_insert AFTER INSERT ON public.blog FOR EACH ROW WHEN ((new.content <> ''::text)) EXECUTE FUNCTION blog_image_uses();
CREATE TRIGGER blog_image_uses_update AFTER UPDATE OF content ON public.blog FOR EACH ROW WHEN ((old.content IS DISTINCT FROM new.content)) EXECUTE FUNCTION blog_image_uses();

INSERT INTO "blog_image" ("blogId", "imageId")
  SELECT DISTINCT b."id", m[1] FROM "blog" AS b, regexp_matches(b."content", '/images/([a-z0-9]{20,40})/', 'g') AS m;
