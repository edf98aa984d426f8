-- AlterTable
ALTER TABLE "blog" ADD COLUMN     "coverImageId" TEXT;

-- CreateTable
CREATE TABLE "image" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "format" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "storedBytes" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "image_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "image_file" (
    "imageId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "image_file_pkey" PRIMARY KEY ("imageId","name")
);

-- CreateIndex
CREATE INDEX "image_userId_createdAt_id_idx" ON "image"("userId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "blog_coverImageId_idx" ON "blog"("coverImageId");

-- AddForeignKey
ALTER TABLE "blog" ADD CONSTRAINT "blog_coverImageId_fkey" FOREIGN KEY ("coverImageId") REFERENCES "image"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "image" ADD CONSTRAINT "image_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "image_file" ADD CONSTRAINT "image_file_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "image"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Image files are already compressed: stored out of line without another compression attempt.
ALTER TABLE "image_file" ALTER COLUMN "data" SET STORAGE EXTERNAL;

-- /images/... serves images (docs/images.md), so "images" is now a reserved handle: an account
-- that held it keeps its pages under a free handle of the same stem.
UPDATE "user" SET "handle" = 'images-user' || (SELECT CASE WHEN count(*) = 0 THEN '' ELSE '-' || count(*)::text END FROM "user" WHERE "handle" LIKE 'images-user%')
WHERE "handle" = 'images';
