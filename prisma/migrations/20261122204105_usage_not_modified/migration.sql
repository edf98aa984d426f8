-- AlterTable
ALTER TABLE "usage_daily" ADD COLUMN     "notModified" INTEGER NOT NULL DEFAULT 0;
