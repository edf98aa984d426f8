-- CreateEnum
CREATE TYPE "ImportStatus" AS ENUM ('queued', 'running', 'done', 'failed');

-- CreateEnum
CREATE TYPE "ImportFormat" AS ENUM ('wordpress', 'ghost', 'substack', 'markdown');

-- AlterTable
ALTER TABLE "blog" ADD COLUMN     "importId" TEXT,
ADD COLUMN     "importSourceId" TEXT;

-- AlterTable
ALTER TABLE "image" ADD COLUMN     "importId" TEXT;

-- AlterTable
ALTER TABLE "subscriber" ADD COLUMN     "importId" TEXT;

-- CreateTable
CREATE TABLE "import" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "format" "ImportFormat" NOT NULL,
    "fileName" TEXT NOT NULL,
    "fileBytes" INTEGER NOT NULL,
    "oldUrl" TEXT,
    "status" "ImportStatus" NOT NULL DEFAULT 'queued',
    "processed" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER,
    "report" JSONB NOT NULL,
    "error" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMPTZ(3),
    "finishedAt" TIMESTAMPTZ(3),
    "undoneAt" TIMESTAMPTZ(3),

    CONSTRAINT "import_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_chunk" (
    "importId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "import_chunk_pkey" PRIMARY KEY ("importId","seq")
);

-- CreateTable
CREATE TABLE "imported_permalink" (
    "userId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "blogId" TEXT NOT NULL,
    "importId" TEXT,

    CONSTRAINT "imported_permalink_pkey" PRIMARY KEY ("userId","path")
);

-- CreateIndex
CREATE INDEX "import_userId_createdAt_id_idx" ON "import"("userId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "imported_permalink_blogId_idx" ON "imported_permalink"("blogId");

-- CreateIndex
CREATE INDEX "imported_permalink_importId_idx" ON "imported_permalink"("importId");

-- CreateIndex
CREATE INDEX "blog_importId_idx" ON "blog"("importId");

-- CreateIndex
CREATE UNIQUE INDEX "blog_userId_importSourceId_key" ON "blog"("userId", "importSourceId");

-- CreateIndex
CREATE INDEX "image_importId_idx" ON "image"("importId");

-- CreateIndex
CREATE INDEX "subscriber_importId_idx" ON "subscriber"("importId");

-- AddForeignKey
ALTER TABLE "blog" ADD CONSTRAINT "blog_importId_fkey" FOREIGN KEY ("importId") REFERENCES "import"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "image" ADD CONSTRAINT "image_importId_fkey" FOREIGN KEY ("importId") REFERENCES "import"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriber" ADD CONSTRAINT "subscriber_importId_fkey" FOREIGN KEY ("importId") REFERENCES "import"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import" ADD CONSTRAINT "import_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_chunk" ADD CONSTRAINT "import_chunk_importId_fkey" FOREIGN KEY ("importId") REFERENCES "import"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "imported_permalink" ADD CONSTRAINT "imported_permalink_blogId_fkey" FOREIGN KEY ("blogId") REFERENCES "blog"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "imported_permalink" ADD CONSTRAINT "imported_permalink_importId_fkey" FOREIGN KEY ("importId") REFERENCES "import"("id") ON DELETE SET NULL ON UPDATE CASCADE;
