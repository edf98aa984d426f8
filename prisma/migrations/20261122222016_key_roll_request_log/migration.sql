-- AlterTable
ALTER TABLE "api_key" ADD COLUMN     "graceEndsAt" TIMESTAMPTZ(3),
ADD COLUMN     "rolledAt" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "api_request_log" (
    "id" BIGSERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "latencyMs" INTEGER NOT NULL,
    "requestId" TEXT NOT NULL,

    CONSTRAINT "api_request_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "api_request_log_userId_id_idx" ON "api_request_log"("userId", "id" DESC);

-- CreateIndex
CREATE INDEX "api_request_log_keyId_at_idx" ON "api_request_log"("keyId", "at" DESC);

-- AddForeignKey
ALTER TABLE "api_request_log" ADD CONSTRAINT "api_request_log_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "api_key"("id") ON DELETE CASCADE ON UPDATE CASCADE;
