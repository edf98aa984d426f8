-- AlterTable
ALTER TABLE "newsletter_delivery" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0;
