-- A blog as the API shows it (src/server/blogs/blog-view.ts) with its email to subscribers:
-- "emailSubscribers" (asked for) and "emailedAt" (when sending started), after "coverImage"
-- (docs/newsletters.md, Emailing a post).
CREATE OR REPLACE FUNCTION "blog_api_view"("b" "blog") RETURNS JSON LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN json_build_object(
    'id', "b"."id", 'title', "b"."title", 'blogSlug', "b"."blogSlug", 'description', "b"."description",
    'content', "b"."content", 'isPublic', "b"."isPublic", 'allowApiAccess', "b"."allowApiAccess",
    'seoTitle', "b"."seoTitle", 'seoDescription', "b"."seoDescription", 'tags', to_json(COALESCE("b"."tags", '{}')),
    'coverImage', "b"."coverImageId",
    'emailSubscribers', "b"."emailSubscribers", 'emailedAt', "webhook_iso_time"("b"."emailedAt"),
    'status', "b"."status", 'publishAt', "webhook_iso_time"("b"."publishAt"), 'publishedAt', "webhook_iso_time"("b"."publishedAt"),
    'createdAt', "webhook_iso_time"("b"."createdAt"), 'updatedAt', "webhook_iso_time"("b"."updatedAt"));
END;
$$;

-- emailedAt is set only in the write that first makes a blog public (blog_derive_state), so, like
-- publishedAt, it is part of the publication: that write is a blog.published, not also a blog.updated.
CREATE OR REPLACE FUNCTION "webhook_blog_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "publication" TEXT[] := ARRAY['updatedAt', 'isPublic', 'status', 'publishAt', 'publishedAt', 'emailedAt'];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "webhook_record_event"(NEW."userId", 'blog.created', "blog_api_view"(NEW)::jsonb);
    IF NEW."publishAt" IS NOT NULL THEN
      PERFORM "webhook_record_event"(NEW."userId", 'blog.scheduled', "blog_api_view"(NEW)::jsonb);
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "webhook_record_event"(OLD."userId", 'blog.deleted', jsonb_build_object('id', OLD."id"));
  ELSE
    IF ("blog_api_view"(OLD)::jsonb - "publication") IS DISTINCT FROM ("blog_api_view"(NEW)::jsonb - "publication")
       OR (OLD."publishAt" IS NOT NULL AND NEW."publishAt" IS NULL AND NOT NEW."isPublic") THEN
      PERFORM "webhook_record_event"(NEW."userId", 'blog.updated', "blog_api_view"(NEW)::jsonb);
    END IF;
    IF NEW."publishAt" IS NOT NULL AND NEW."publishAt" IS DISTINCT FROM OLD."publishAt" THEN
      PERFORM "webhook_record_event"(NEW."userId", 'blog.scheduled', "blog_api_view"(NEW)::jsonb);
    END IF;
    IF OLD."isPublic" IS DISTINCT FROM NEW."isPublic" THEN
      PERFORM "webhook_record_event"(NEW."userId", CASE WHEN NEW."isPublic" THEN 'blog.published' ELSE 'blog.unpublished' END, "blog_api_view"(NEW)::jsonb);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
