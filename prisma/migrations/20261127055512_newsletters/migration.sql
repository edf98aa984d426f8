-- CreateEnum
CREATE TYPE "SubscriberStatus" AS ENUM ('pending', 'active', 'unsubscribed', 'bounced');

-- CreateEnum
CREATE TYPE "SubscriberSource" AS ENUM ('form', 'import', 'api');

-- CreateEnum
CREATE TYPE "NewsletterStatus" AS ENUM ('sending', 'sent');

-- CreateEnum
CREATE TYPE "DeliveryStatus" AS ENUM ('claimed', 'sent', 'failed');

-- AlterTable
ALTER TABLE "blog" ADD COLUMN     "emailSubscribers" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "emailedAt" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "subscriber" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "status" "SubscriberStatus" NOT NULL DEFAULT 'pending',
    "source" "SubscriberSource" NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "confirmedAt" TIMESTAMPTZ(3),
    "unsubscribedAt" TIMESTAMPTZ(3),
    "bounceReason" TEXT,
    "confirmTokenHash" TEXT,
    "confirmationSentAt" TIMESTAMPTZ(3),
    "unsubscribeToken" TEXT NOT NULL,

    CONSTRAINT "subscriber_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "newsletter" (
    "blogId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "status" "NewsletterStatus" NOT NULL DEFAULT 'sending',
    "total" INTEGER NOT NULL,
    "sent" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "newsletter_pkey" PRIMARY KEY ("blogId")
);

-- CreateTable
CREATE TABLE "newsletter_delivery" (
    "blogId" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'claimed',
    "claimedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(3),
    "error" TEXT,

    CONSTRAINT "newsletter_delivery_pkey" PRIMARY KEY ("blogId","subscriberId")
);

-- CreateIndex
CREATE UNIQUE INDEX "subscriber_confirmTokenHash_key" ON "subscriber"("confirmTokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "subscriber_unsubscribeToken_key" ON "subscriber"("unsubscribeToken");

-- CreateIndex
CREATE INDEX "subscriber_userId_createdAt_id_idx" ON "subscriber"("userId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "subscriber_userId_status_createdAt_id_idx" ON "subscriber"("userId", "status", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "subscriber_userId_status_id_idx" ON "subscriber"("userId", "status", "id");

-- CreateIndex
CREATE UNIQUE INDEX "subscriber_userId_email_key" ON "subscriber"("userId", "email");

-- CreateIndex
CREATE INDEX "newsletter_status_idx" ON "newsletter"("status");

-- CreateIndex
CREATE INDEX "newsletter_delivery_blogId_status_claimedAt_idx" ON "newsletter_delivery"("blogId", "status", "claimedAt");

-- CreateIndex
CREATE INDEX "newsletter_delivery_subscriberId_idx" ON "newsletter_delivery"("subscriberId");

-- AddForeignKey
ALTER TABLE "subscriber" ADD CONSTRAINT "subscriber_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "newsletter" ADD CONSTRAINT "newsletter_blogId_fkey" FOREIGN KEY ("blogId") REFERENCES "blog"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "newsletter_delivery" ADD CONSTRAINT "newsletter_delivery_blogId_fkey" FOREIGN KEY ("blogId") REFERENCES "blog"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "newsletter_delivery" ADD CONSTRAINT "newsletter_delivery_subscriberId_fkey" FOREIGN KEY ("subscriberId") REFERENCES "subscriber"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A post is emailed once (docs/newsletters.md): when a blog asking for it (emailSubscribers)
-- first becomes public, now or by its schedule, emailedAt is set in the same write...
CREATE OR REPLACE FUNCTION "blog_derive_state"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."tags" := COALESCE(NEW."tags", '{}');
  NEW."tagSlugs" := "blog_tag_slugs"(NEW."tags");
  IF NEW."isPublic" AND NEW."emailSubscribers" AND NEW."emailedAt" IS NULL
     AND (TG_OP = 'INSERT' OR OLD."publishedAt" IS NULL) THEN
    NEW."emailedAt" := now();
  END IF;
  IF NEW."isPublic" THEN
    NEW."publishAt" := NULL;
    NEW."publishedAt" := COALESCE(NEW."publishedAt", CASE
      WHEN TG_OP = 'INSERT' THEN NEW."createdAt"
      WHEN NEW."updatedAt" IS DISTINCT FROM OLD."updatedAt" THEN NEW."updatedAt"
      ELSE now()
    END);
  END IF;
  NEW."status" := CASE WHEN NEW."isPublic" THEN 'published' WHEN NEW."publishAt" IS NOT NULL THEN 'scheduled' ELSE 'draft' END;
  RETURN NEW;
END;
$$;

-- ...and the newsletter row is made, its total the active subscribers confirmed by then, and its
-- first newsletter_send job queued (AFTER UPDATE with no column list: the BEFORE trigger sets
-- emailedAt, and UPDATE OF would only see columns the statement names) (the worker queues it at start when the job engine was not
-- installed yet, src/server/newsletters).
CREATE OR REPLACE FUNCTION "blog_newsletter_start"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "newsletter" ("blogId", "userId", "total", "startedAt")
  VALUES (NEW."id", NEW."userId",
    (SELECT count(*) FROM "subscriber" WHERE "userId" = NEW."userId" AND "status" = 'active' AND "confirmedAt" <= NEW."emailedAt"),
    NEW."emailedAt")
  ON CONFLICT ("blogId") DO NOTHING;
  IF "job_engine_installed"() THEN
    PERFORM graphile_worker.add_job('newsletter_send', json_build_object('blogId', NEW."id"),
      job_key := 'newsletter_send:' || NEW."id", max_attempts := 25);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "blog_newsletter_start_insert" AFTER INSERT ON "blog"
  FOR EACH ROW WHEN (NEW."emailedAt" IS NOT NULL) EXECUTE FUNCTION "blog_newsletter_start"();
CREATE TRIGGER "blog_newsletter_start_update" AFTER UPDATE ON "blog"
  FOR EACH ROW WHEN (OLD."emailedAt" IS NULL AND NEW."emailedAt" IS NOT NULL) EXECUTE FUNCTION "blog_newsletter_start"();
