import "server-only";
import type { SqlPool } from "~/server/db";
import { pageOffset } from "~/server/common/pagination";

/**
 * Public search (docs/public-blog.md, Search): an account's public blogs whose words match a
 * query, newest first, with a snippet of each marked where it matches. Knows nothing of HTTP.
 */

/** Results per page of /{handle}/search. */
export const SEARCH_PAGE_SIZE = 10;

/** Where a snippet's matching words start and stop: control characters, which ./pages.tsx turns into <mark> (none is left in the text around them). */
export const SNIPPET_MARK_START = "\u0002";
export const SNIPPET_MARK_END = "\u0003";

/** The query's words, lowercased, once each: runs of letters and digits (none: nothing to search for). */
export function searchWords(q: string): string[] {
  return [...new Set(q.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu))];
}

/**
 * The query ($2) as a tsquery: each word PostgreSQL's parser finds in it (the 'simple'
 * configuration, as the blogs' words are found) must begin a word of the blog, ignoring case
 * (`post` finds "Posts"), close to the API's `q`, which finds text anywhere in a title. Built as
 * tsquery input, which takes each word as it is, quoted: no operator can come through the text.
 */
const TS_QUERY = `(SELECT string_agg('''' || replace(replace("lexeme", '\\', '\\\\'), '''', '''''') || ''':*', ' & ') FROM unnest(to_tsvector('simple', $2)))::tsquery`;

/** ts_headline's options: two short fragments, matches between the marks. */
const HEADLINE_OPTIONS = `StartSel=${SNIPPET_MARK_START}, StopSel=${SNIPPET_MARK_END}, MaxFragments=2, MaxWords=30, MinWords=12, ShortWord=0, FragmentDelimiter=" … "`;

/**
 * The text a snippet is cut from, of the blog row aliased `b`: 1,000 characters of its description
 * and content around the first place the query's longest word ($6) appears in them (their start
 * when it is in the title or tags only), so ts_headline, which reads every word it is given, reads
 * the same few whatever the blog's length; link targets, Markdown's punctuation and the marks'
 * characters left out, so that only ts_headline's marks remain.
 */
const SNIPPET_TEXT = `regexp_replace(regexp_replace(
    substr(b."description" || E'\\n' || b."content", greatest(1, strpos(lower(b."description" || E'\\n' || b."content"), $6) - 300), 1000),
    '\\]\\([^)]*\\)', ']', 'g'), '[#*_\`~>|\\[\\]\\x02\\x03]+', ' ', 'g')`;

/** How many of the newest public blogs are checked, per page asked for, before the index of words is read instead. */
const NEWEST_CHECKED_PER_PAGE = 1_000;

export interface SearchResult {
  title: string;
  blogSlug: string;
  publishedAt: Date;
  /** Plain text on one line, its matching words between SNIPPET_MARK_START and SNIPPET_MARK_END; empty when the blog has no description or content. */
  snippet: string;
}

/**
 * The statement of one page (and one row more); the bench (bench/search.ts) explains the same
 * text. The page's ids come one of two ways, so that neither a common word nor a rare one costs a
 * scan of every blog, whatever PostgreSQL estimates (it cannot tell how many blogs a word prefix
 * matches, bench/README.md, Search):
 * - the account's newest public blogs, in the public index's order, each one's stored words
 *   checked, stopping at the page's last match: a word most blogs have ends this after a few rows;
 * - when the newest NEWEST_CHECKED_PER_PAGE × page blogs do not fill the page, the matches are
 *   rare: all of them from the GIN index, then sorted.
 * ts_headline, the costly part, runs on the page's rows only.
 */
export function searchPublicBlogsSql(ownerId: string, q: string, words: string[], page: number): { text: string; values: unknown[] } {
  const longestWord = words.reduce((longest, word) => (word.length > longest.length ? word : longest));
  const offset = pageOffset(page, SEARCH_PAGE_SIZE);
  return {
    text: `WITH "newest" AS MATERIALIZED (
       SELECT "id", "publishedAt" FROM (
         SELECT "id", "publishedAt", "searchVector" FROM "blog" WHERE "userId" = $1 AND "isPublic"
         ORDER BY "publishedAt" DESC, "id" DESC LIMIT $7) AS r
       WHERE "searchVector" @@ ${TS_QUERY} ORDER BY "publishedAt" DESC, "id" DESC LIMIT $8
     ), "matched" AS (
       SELECT "id", "publishedAt" FROM "newest" WHERE (SELECT count(*) FROM "newest") = $8
       UNION ALL
       SELECT "id", "publishedAt" FROM "blog"
       WHERE "userId" = $1 AND "isPublic" AND "searchVector" @@ ${TS_QUERY} AND (SELECT count(*) FROM "newest") < $8
     )
     SELECT b."title", b."blogSlug", b."publishedAt", ts_headline('simple', ${SNIPPET_TEXT}, ${TS_QUERY}, $5) AS "snippet"
     FROM (SELECT "id" FROM "matched" ORDER BY "publishedAt" DESC, "id" DESC LIMIT $3 OFFSET $4) AS ids
     JOIN "blog" AS b ON b."id" = ids."id"
     ORDER BY b."publishedAt" DESC, b."id" DESC`,
    values: [ownerId, q, SEARCH_PAGE_SIZE + 1, offset, HEADLINE_OPTIONS, longestWord, NEWEST_CHECKED_PER_PAGE * page, offset + SEARCH_PAGE_SIZE + 1],
  };
}

/**
 * One page of the account's public blogs matching `q` (newest first, ties by id) and whether
 * another page follows. The ids come from the GIN index on "searchVector" (or, for words most
 * blogs have, from the public index's order, each row's stored vector checked), then the page's
 * rows by key: ts_headline, the costly part, runs on those rows only (bench/README.md, Search).
 */
export async function searchPublicBlogs(pool: SqlPool, ownerId: string, q: string, page: number): Promise<{ results: SearchResult[]; hasOlder: boolean }> {
  const words = searchWords(q);
  if (words.length === 0) return { results: [], hasOlder: false };
  const { rows } = await pool.query<SearchResult>(searchPublicBlogsSql(ownerId, q, words, page));
  // The text's line breaks and the room left by Markdown's punctuation, as one space.
  const results = rows.slice(0, SEARCH_PAGE_SIZE).map((row) => ({ ...row, snippet: row.snippet.replace(/\s+/g, " ").trim() }));
  return { results, hasOlder: rows.length > SEARCH_PAGE_SIZE };
}
