-- AlterTable
ALTER TABLE "twoFactor" ADD COLUMN     "lastTotpStep" INTEGER;
