-- A subscriber as the API shows it (src/shared/subscribers.ts subscriberSchema): the data of the
-- subscriber.* webhook events (docs/webhooks.md).
CREATE OR REPLACE FUNCTION "subscriber_api_view"(s "subscriber") RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', "s"."id", 'email', "s"."email", 'name', "s"."name", 'status', "s"."status", 'source', "s"."source",
    'createdAt', "webhook_iso_time"("s"."createdAt"), 'confirmedAt', "webhook_iso_time"("s"."confirmedAt"),
    'unsubscribedAt', "webhook_iso_time"("s"."unsubscribedAt"))
$$;

-- subscriber.created when a subscriber is active for the first time (made active by the API or an
-- import, or a form subscriber's first confirmation: it never had a confirmedAt before), and
-- subscriber.unsubscribed when its status becomes unsubscribed; recorded in the write's own
-- transaction, whoever makes it (docs/webhooks.md, Events).
CREATE OR REPLACE FUNCTION "webhook_subscriber_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."status" = 'active' AND (TG_OP = 'INSERT' OR (OLD."status" <> 'active' AND OLD."confirmedAt" IS NULL)) THEN
    PERFORM "webhook_record_event"(NEW."userId", 'subscriber.created', "subscriber_api_view"(NEW));
  ELSIF TG_OP = 'UPDATE' AND NEW."status" = 'unsubscribed' AND OLD."status" <> 'unsubscribed' THEN
    PERFORM "webhook_record_event"(NEW."userId", 'subscriber.unsubscribed', "subscriber_api_view"(NEW));
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "webhook_subscriber_change" AFTER INSERT OR UPDATE OF "status" ON "subscriber"
  FOR EACH ROW EXECUTE FUNCTION "webhook_subscriber_change"();
