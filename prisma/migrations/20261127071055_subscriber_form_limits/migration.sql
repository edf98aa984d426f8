-- CreateIndex
CREATE INDEX "subscriber_userId_confirmationSentAt_idx" ON "subscriber"("userId", "confirmationSentAt");

-- CreateIndex
CREATE INDEX "subscriber_status_createdAt_idx" ON "subscriber"("status", "createdAt");
