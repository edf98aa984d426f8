-- A blog written without naming its authors (an API key, the CLI, an import, plain SQL) is the
-- publication's owner's (docs/authors.md, Authors): its owner member, which after a transfer of
-- ownership is no longer the founder whose id the publication bears; the founder when it has none.
CREATE OR REPLACE FUNCTION "blog_default_authors"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF COALESCE(cardinality(NEW."authors"), 0) = 0 THEN
    NEW."authors" := ARRAY[COALESCE(
      (SELECT m."userId" FROM "member" AS m WHERE m."organizationId" = NEW."userId" AND m."role" = 'owner' ORDER BY m."createdAt", m."id" LIMIT 1),
      NEW."userId")];
  END IF;
  RETURN NEW;
END;
$$;
