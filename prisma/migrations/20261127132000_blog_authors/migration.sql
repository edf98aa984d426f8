-- A blog's authors in its API shape (docs/api.md, the blog object; docs/authors.md): the API's answers,
-- the ETag and the webhook payloads all read blog_api_view, so they show them alike.
CREATE OR REPLACE FUNCTION "blog_api_view"("b" "blog") RETURNS json LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN json_build_object(
    'id', "b"."id", 'title', "b"."title", 'blogSlug', "b"."blogSlug", 'description', "b"."description",
    'content', "b"."content", 'isPublic', "b"."isPublic", 'allowApiAccess', "b"."allowApiAccess",
    'seoTitle', "b"."seoTitle", 'seoDescription', "b"."seoDescription", 'tags', to_json(COALESCE("b"."tags", '{}')),
    'authors', to_json(COALESCE("b"."authors", '{}')),
    'coverImage', "b"."coverImageId",
    'emailSubscribers', "b"."emailSubscribers", 'emailedAt', "webhook_iso_time"("b"."emailedAt"),
    'status', "b"."status", 'publishAt', "webhook_iso_time"("b"."publishAt"), 'publishedAt', "webhook_iso_time"("b"."publishedAt"),
    'createdAt', "webhook_iso_time"("b"."createdAt"), 'updatedAt', "webhook_iso_time"("b"."updatedAt"));
END;
$$;

-- A draft in review stops being one when it is published or scheduled (docs/authors.md, Review).
CREATE OR REPLACE FUNCTION "blog_review_end"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."inReviewAt" IS NOT NULL AND (NEW."isPublic" OR NEW."publishAt" IS NOT NULL) THEN
    NEW."inReviewAt" := NULL;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "blog_review_end" BEFORE INSERT OR UPDATE ON "blog"
  FOR EACH ROW EXECUTE FUNCTION "blog_review_end"();
