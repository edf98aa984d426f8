-- CreateTable
CREATE TABLE "webhook_endpoint" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "eventTypes" TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "secret" TEXT NOT NULL,
    "disabledReason" TEXT,
    "failingSince" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_endpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_event" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dispatchedAt" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery" (
    "id" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempt" (
    "id" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "responseStatus" INTEGER,
    "responseBody" TEXT NOT NULL DEFAULT '',
    "error" TEXT,

    CONSTRAINT "webhook_attempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_endpoint_userId_createdAt_idx" ON "webhook_endpoint"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "webhook_event_dispatchedAt_createdAt_idx" ON "webhook_event"("dispatchedAt", "createdAt");

-- CreateIndex
CREATE INDEX "webhook_event_createdAt_idx" ON "webhook_event"("createdAt");

-- CreateIndex
CREATE INDEX "webhook_delivery_endpointId_createdAt_idx" ON "webhook_delivery"("endpointId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "webhook_delivery_eventId_idx" ON "webhook_delivery"("eventId");

-- CreateIndex
CREATE INDEX "webhook_delivery_createdAt_idx" ON "webhook_delivery"("createdAt");

-- CreateIndex
CREATE INDEX "webhook_attempt_deliveryId_attempt_idx" ON "webhook_attempt"("deliveryId", "attempt");

-- AddForeignKey
ALTER TABLE "webhook_endpoint" ADD CONSTRAINT "webhook_endpoint_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "webhook_event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "webhook_endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempt" ADD CONSTRAINT "webhook_attempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "webhook_delivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The outbox (docs/webhooks.md): row triggers on "blog" and "api_key" record an event in the same
-- transaction as the change, whoever writes (API, dashboard, CLI import, direct SQL), so a change
-- that rolls back leaves no event. Only accounts with an enabled endpoint subscribed to the type
-- get one. The worker fans an event out to deliveries: the trigger queues that job when the job
-- engine's schema is installed; otherwise (or if it was not running) the worker's start-up sweep
-- finds the undispatched events, so a blog write never depends on the job engine.

-- Timestamps as the API shows them: ISO 8601, UTC, milliseconds.
CREATE FUNCTION "webhook_iso_time"("t" TIMESTAMPTZ) RETURNS TEXT LANGUAGE sql STABLE AS $$
  SELECT to_char("t" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- A blog as the API shows it (src/server/blogs/blog-view.ts).
CREATE FUNCTION "webhook_blog_view"("b" "blog") RETURNS JSONB LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', "b"."id", 'title', "b"."title", 'blogSlug', "b"."blogSlug", 'description', "b"."description",
    'content', "b"."content", 'isPublic', "b"."isPublic", 'allowApiAccess', "b"."allowApiAccess",
    'seoTitle', "b"."seoTitle", 'seoDescription', "b"."seoDescription",
    'createdAt', "webhook_iso_time"("b"."createdAt"), 'updatedAt', "webhook_iso_time"("b"."updatedAt"))
$$;

-- An API key as the dashboard lists it: never its hash.
CREATE FUNCTION "webhook_api_key_view"("k" "api_key") RETURNS JSONB LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', "k"."id", 'name', "k"."name", 'description', "k"."description",
    'keyPrefix', "k"."keyPrefix", 'keySuffix', "k"."keySuffix", 'permissions', to_jsonb("k"."permissions"),
    'expiresAt', "webhook_iso_time"("k"."expiresAt"), 'deactivatedAt', "webhook_iso_time"("k"."deactivatedAt"),
    'createdAt', "webhook_iso_time"("k"."createdAt"))
$$;

CREATE FUNCTION "webhook_record_event"("p_user_id" TEXT, "p_type" TEXT, "p_data" JSONB) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
  "v_event_id" TEXT;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM "webhook_endpoint" WHERE "userId" = "p_user_id" AND "enabled" AND "p_type" = ANY ("eventTypes")
  ) THEN
    RETURN;
  END IF;
  "v_event_id" := 'msg_' || replace(gen_random_uuid()::text, '-', '');
  INSERT INTO "webhook_event" ("id", "userId", "type", "data") VALUES ("v_event_id", "p_user_id", "p_type", "p_data");
  IF EXISTS (
    SELECT 1 FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace
    WHERE n.nspname = 'graphile_worker' AND p.proname = 'add_job'
  ) THEN
    PERFORM graphile_worker.add_job('webhook_fanout', json_build_object('eventId', "v_event_id"), max_attempts := 10);
  END IF;
END;
$$;

-- A publish or unpublish (isPublic flips) is blog.published / blog.unpublished; blog.updated only
-- when another field the API shows changed too (updatedAt alone is no change), so an update that
-- both edits and publishes gives both events.
CREATE FUNCTION "webhook_blog_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "webhook_record_event"(NEW."userId", 'blog.created', "webhook_blog_view"(NEW));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "webhook_record_event"(OLD."userId", 'blog.deleted', jsonb_build_object('id', OLD."id"));
  ELSE
    IF ("webhook_blog_view"(OLD) - 'updatedAt' - 'isPublic') IS DISTINCT FROM ("webhook_blog_view"(NEW) - 'updatedAt' - 'isPublic') THEN
      PERFORM "webhook_record_event"(NEW."userId", 'blog.updated', "webhook_blog_view"(NEW));
    END IF;
    IF OLD."isPublic" IS DISTINCT FROM NEW."isPublic" THEN
      PERFORM "webhook_record_event"(NEW."userId", CASE WHEN NEW."isPublic" THEN 'blog.published' ELSE 'blog.unpublished' END, "webhook_blog_view"(NEW));
    END IF;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "webhook_blog_change" AFTER INSERT OR UPDATE OR DELETE ON "blog"
  FOR EACH ROW EXECUTE FUNCTION "webhook_blog_change"();

CREATE FUNCTION "webhook_api_key_deactivated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "webhook_record_event"(NEW."userId", 'api_key.deactivated', "webhook_api_key_view"(NEW));
  RETURN NULL;
END;
$$;

CREATE TRIGGER "webhook_api_key_deactivated" AFTER UPDATE OF "deactivatedAt" ON "api_key"
  FOR EACH ROW WHEN (OLD."deactivatedAt" IS NULL AND NEW."deactivatedAt" IS NOT NULL)
  EXECUTE FUNCTION "webhook_api_key_deactivated"();
