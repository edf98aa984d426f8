-- The audit log (docs/audit-log.md): one entry per change to what a publication holds.

-- CreateTable
CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorKind" TEXT NOT NULL,
    "actorId" TEXT,
    "actorName" TEXT,
    "action" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "ip" TEXT,
    "userAgent" TEXT,
    "requestId" TEXT,
    "changedFields" TEXT[] DEFAULT ARRAY[]::TEXT[],

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_log_userId_id_idx" ON "audit_log"("userId", "id" DESC);

-- CreateIndex
CREATE INDEX "audit_log_at_idx" ON "audit_log"("at");

-- The audit log (docs/audit-log.md). Who made a change is named for its transaction in
-- blogmgr.change_source, the setting the blog revisions already read (src/server/blogs/change-source.ts):
-- the app sets it in every transaction it writes in while it knows the actor (src/server/db/audit-context.ts),
-- with the request's address, user agent and id. A write without it is recorded as "database".

-- Append-only: no entry is ever changed; one is deleted only by the 180-day purge (the job sets
-- blogmgr.audit_purge for its transaction, and only entries older than 180 days go) or with its
-- publication (the organization's deletion, below). TRUNCATE is refused too.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND (
    (current_setting('blogmgr.audit_purge', true) = 'on' AND OLD."at" < now() - interval '180 days')
    OR NOT EXISTS (SELECT 1 FROM "organization" WHERE "id" = OLD."userId")
  ) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();

-- A publication deleted takes its entries with it.
CREATE FUNCTION "audit_log_publication_gone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "audit_log" WHERE "userId" = OLD."id";
  RETURN NULL;
END;
$$;

CREATE TRIGGER "audit_log_publication_gone" AFTER DELETE ON "organization"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_publication_gone"();

-- One entry per row written in an audited table. Arguments: the target's type (the action's
-- prefix), the column naming the publication, the target's id column, then the columns never
-- named (secrets, and bookkeeping the app writes on its own: a write changing only those records
-- nothing). Only the names of changed columns are kept, never a value.
CREATE FUNCTION "audit_record"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "source" JSONB := COALESCE(NULLIF(current_setting('blogmgr.change_source', true), '')::jsonb, '{}');
  "target_type" TEXT := TG_ARGV[0];
  "ignored" TEXT[] := TG_ARGV[3:];
  "old_row" JSONB;
  "new_row" JSONB;
  "row" JSONB;
  "fields" TEXT[] := '{}';
  "verb" TEXT;
BEGIN
  IF TG_OP <> 'INSERT' THEN "old_row" := to_jsonb(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN "new_row" := to_jsonb(NEW); END IF;
  "row" := COALESCE("new_row", "old_row");
  -- The publication's own deletion cascading here: its entries go with it, nothing to record.
  IF NOT EXISTS (SELECT 1 FROM "organization" WHERE "id" = "row"->>TG_ARGV[1]) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    "verb" := 'created';
    SELECT COALESCE(array_agg("k" ORDER BY "k"), '{}') INTO "fields" FROM jsonb_object_keys("new_row" - "ignored") AS "k"
    WHERE "k" NOT IN (TG_ARGV[1], TG_ARGV[2]) AND jsonb_typeof("new_row"->"k") <> 'null';
  ELSIF TG_OP = 'DELETE' THEN
    "verb" := 'deleted';
  ELSE
    SELECT COALESCE(array_agg("k" ORDER BY "k"), '{}') INTO "fields" FROM jsonb_object_keys("new_row" - "ignored") AS "k"
    WHERE "new_row"->"k" IS DISTINCT FROM "old_row"->"k";
    "verb" := CASE
      WHEN "target_type" = 'blog' AND "old_row"->'isPublic' <> "new_row"->'isPublic' THEN
        CASE WHEN ("new_row"->>'isPublic')::boolean THEN 'published' ELSE 'unpublished' END
      WHEN "target_type" = 'blog' AND "new_row"->>'publishAt' IS NOT NULL AND "old_row"->>'publishAt' IS DISTINCT FROM "new_row"->>'publishAt' THEN 'scheduled'
      WHEN "target_type" = 'api_key' AND "old_row"->>'rolledAt' IS NULL AND "new_row"->>'rolledAt' IS NOT NULL THEN 'rolled'
      WHEN "target_type" = 'api_key' AND "old_row"->>'deactivatedAt' IS NULL AND "new_row"->>'deactivatedAt' IS NOT NULL THEN 'deactivated'
      WHEN "target_type" = 'webhook' AND "old_row"->>'secret' IS DISTINCT FROM "new_row"->>'secret' THEN 'secret_rolled'
      WHEN "target_type" = 'member' AND "old_row"->>'role' IS DISTINCT FROM "new_row"->>'role' THEN 'role_changed'
      WHEN "target_type" = 'invitation' AND "old_row"->>'status' IS DISTINCT FROM "new_row"->>'status' THEN "new_row"->>'status'
      ELSE 'updated'
    END;
    -- Only ignored columns changed (a key's last use, an import's progress): nothing to record.
    IF cardinality("fields") = 0 AND "verb" = 'updated' THEN
      RETURN NULL;
    END IF;
  END IF;
  INSERT INTO "audit_log" ("userId", "actorKind", "actorId", "actorName", "action", "targetType", "targetId",
    "ip", "userAgent", "requestId", "changedFields")
  VALUES ("row"->>TG_ARGV[1],
    COALESCE("source"->>'actorKind', CASE "source"->>'by'
      WHEN 'api_key' THEN 'api_key' WHEN 'cli' THEN 'cli' WHEN 'import' THEN 'job' WHEN 'owner' THEN 'member' WHEN 'restore' THEN 'member'
      ELSE 'database' END),
    "source"->>'actorId', COALESCE("source"->>'actorName', "source"->>'name'),
    "target_type" || '.' || "verb", "target_type", "row"->>TG_ARGV[2],
    "source"->>'ip', "source"->>'userAgent', "source"->>'requestId', "fields");
  RETURN NULL;
END;
$$;

CREATE TRIGGER "audit_record" AFTER INSERT OR UPDATE OR DELETE ON "blog"
  FOR EACH ROW EXECUTE FUNCTION "audit_record"('blog', 'userId', 'id', 'updatedAt', 'searchVector', 'tagSlugs');
CREATE TRIGGER "audit_record" AFTER INSERT OR UPDATE OR DELETE ON "publication"
  FOR EACH ROW EXECUTE FUNCTION "audit_record"('settings', 'userId', 'userId', 'updatedAt', 'domainToken');
CREATE TRIGGER "audit_record" AFTER INSERT OR UPDATE OR DELETE ON "organization"
  FOR EACH ROW EXECUTE FUNCTION "audit_record"('publication', 'id', 'id');
CREATE TRIGGER "audit_record" AFTER INSERT OR UPDATE OR DELETE ON "member"
  FOR EACH ROW EXECUTE FUNCTION "audit_record"('member', 'organizationId', 'id');
CREATE TRIGGER "audit_record" AFTER INSERT OR UPDATE OR DELETE ON "invitation"
  FOR EACH ROW EXECUTE FUNCTION "audit_record"('invitation', 'organizationId', 'id');
CREATE TRIGGER "audit_record" AFTER INSERT OR UPDATE OR DELETE ON "api_key"
  FOR EACH ROW EXECUTE FUNCTION "audit_record"('api_key', 'userId', 'id', 'keyHash', 'lastUsedAt');
CREATE TRIGGER "audit_record" AFTER INSERT OR UPDATE OR DELETE ON "webhook_endpoint"
  FOR EACH ROW EXECUTE FUNCTION "audit_record"('webhook', 'userId', 'id', 'secret', 'updatedAt');
CREATE TRIGGER "audit_record" AFTER INSERT OR UPDATE OR DELETE ON "subscriber"
  FOR EACH ROW EXECUTE FUNCTION "audit_record"('subscriber', 'userId', 'id', 'confirmTokenHash', 'unsubscribeToken');
CREATE TRIGGER "audit_record" AFTER INSERT OR UPDATE OR DELETE ON "import"
  FOR EACH ROW EXECUTE FUNCTION "audit_record"('import', 'userId', 'id', 'processed', 'report');
