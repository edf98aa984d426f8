-- Public search (docs/public-blog.md, Search): the words of a blog's title, tags, description and
-- content, kept by PostgreSQL as a stored generated column (so every writer keeps it) with a GIN
-- index over it. The 'simple' configuration: words lowercased, neither stemmed nor dropped as stop
-- words, whatever the blog's language. Stripped of positions and weights, which only ranking and
-- phrase search read: results are newest first, and the vector is half the size, so half as costly
-- to check row by row (bench/README.md, Search). Only the content's first 100,000 characters
-- count: a tsvector holds at most 1 MB, which no write may fail over.
CREATE FUNCTION "blog_search_vector"("title" text, "tags" text[], "description" text, "content" text)
 RETURNS tsvector
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
-- Immutable, as a generated column requires: array_to_string is over text[] (PostgreSQL marks it
-- stable for the element types whose output may change).
RETURN strip(to_tsvector('simple'::regconfig, "title" || ' ' || array_to_string("tags", ' ') || ' ' || "description" || ' ' || left("content", 100000)));

-- AlterTable
ALTER TABLE "blog" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS ("blog_search_vector"("title", "tags", "description", "content")) STORED;

-- CreateIndex
CREATE INDEX "blog_searchVector_idx" ON "blog" USING GIN ("searchVector");
