-- A blog as the API shows it (src/server/blogs/blog-view.ts) with its cover image's id, "coverImage"
-- (docs/api.md, Writing), after its tags. The webhook trigger compares this view, so a changed
-- cover, or one cleared by its image's deletion (the foreign key), is a blog.updated.
CREATE OR REPLACE FUNCTION "blog_api_view"("b" "blog") RETURNS JSON LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN json_build_object(
    'id', "b"."id", 'title', "b"."title", 'blogSlug', "b"."blogSlug", 'description', "b"."description",
    'content', "b"."content", 'isPublic', "b"."isPublic", 'allowApiAccess', "b"."allowApiAccess",
    'seoTitle', "b"."seoTitle", 'seoDescription', "b"."seoDescription", 'tags', to_json(COALESCE("b"."tags", '{}')),
    'coverImage', "b"."coverImageId",
    'status', "b"."status", 'publishAt', "webhook_iso_time"("b"."publishAt"), 'publishedAt', "webhook_iso_time"("b"."publishedAt"),
    'createdAt', "webhook_iso_time"("b"."createdAt"), 'updatedAt', "webhook_iso_time"("b"."updatedAt"));
END;
$$;
