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

-- A blog written without naming its authors (an API key, the CLI, an import, direct SQL) is the
-- publication's owner's; the dashboard names the member who creates it. A draft in review stops
-- being one when it is published or scheduled (docs/authors.md, Review).
CREATE OR REPLACE FUNCTION "blog_team_fields"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."authors" IS NULL OR cardinality(NEW."authors") = 0 THEN
    NEW."authors" := ARRAY[COALESCE(
      (SELECT m."userId" FROM "member" AS m WHERE m."organizationId" = NEW."userId" AND m."role" = 'owner' ORDER BY m."createdAt", m."id" LIMIT 1),
      NEW."userId")];
  END IF;
  IF NEW."inReviewAt" IS NOT NULL AND (NEW."isPublic" OR NEW."publishAt" IS NOT NULL) THEN
    NEW."inReviewAt" := NULL;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "blog_team_fields" BEFORE INSERT OR UPDATE ON "blog"
  FOR EACH ROW EXECUTE FUNCTION "blog_team_fields"();
