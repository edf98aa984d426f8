-- AlterTable
ALTER TABLE "api_request_log" ADD COLUMN     "errorCode" TEXT,
ADD COLUMN     "query" TEXT;
