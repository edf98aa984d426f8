import "server-only";
import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { LRUCache } from "lru-cache";
import { log } from "../runtime/log";

/**
 * The public site's shared cache (docs/public-blog.md, The cache): each answer (a page, a feed, a
 * sitemap, a share image) made once per change of its account's public content and kept, with its
 * compressed forms, its ETag and its Last-Modified, for every request after.
 *
 * Whether a kept answer may be served as it is depends on what this process knows:
 * - while it listens for changes (./change-listener.ts: PostgreSQL announces each move of an
 *   account's content version when the writing transaction commits, whoever wrote) and the
 *   listening is proven to work, an answer made after the last change of its account is served
 *   with no database work at all;
 * - otherwise (not listening, a lost or silent connection, Vercel's short-lived functions) each
 *   hit first reads the account's version (one statement by unique key), and the answer is served
 *   if it was made at that version, made again if not.
 * Writes made by this process also forget their account's answers at once (forgetPublicPages), so
 * a change made through the app shows on the very next request, before any notice arrives.
 */

/** Bytes of answers kept (bodies and their compressed forms); the least recently used go first. */
const CACHE_BYTES = 64 * 1024 * 1024;
/** Searches' answers are kept apart, in this many bytes, so that any number of queries never pushes a page out (docs/public-blog.md, Search). */
const SEARCH_CACHE_BYTES = 4 * 1024 * 1024;
/** A listener proven to deliver no longer ago than this is trusted (./change-listener.ts probes every 10 s). */
export const LISTENER_TRUST_MS = 15_000;

export interface PublicAnswer {
  contentType: string;
  body: Buffer;
  /** The body compressed, for clients that accept it (text only). */
  gzip?: Buffer;
  br?: Buffer;
  /** Weak (the compressed forms share it), from the body's SHA-256. */
  etag: string;
  lastModified: Date;
  /** The post a page shows, for its readers' views (src/server/views/); absent on other answers. */
  blogId?: string;
  /** A moved blog's old address (docs/public-blog.md, Moved blogs): answered 301 to this path, the body a note naming it. */
  location?: string;
  /** A page's stylesheets besides the reader's, as CSP sources (a publication's accent, ./accent.ts). */
  styleSources?: string[];
}

/** What an answer was made from: its account (null: every account's, e.g. the sitemap index) and that account's content version. */
export interface AnswerSource {
  ownerId: string | null;
  version: string | null;
}

export interface SourcedAnswer extends AnswerSource {
  answer: PublicAnswer;
}

export interface CacheResult extends SourcedAnswer {
  cache: "HIT" | "REVALIDATED" | "MISS" | "STALE";
}

interface Entry extends SourcedAnswer {
  /** The clock when the reads it was made or last checked from began. */
  checkedAt: number;
}

const COMPRESSIBLE = /^(text\/|application\/(.+\+)?(xml|json))/;

const entityTag = (body: Buffer) => `W/"${createHash("sha256").update(body).digest("base64url")}"`;

export function makeAnswer(contentType: string, content: string | Buffer, lastModified: Date, styleSources?: string[]): PublicAnswer {
  const body = typeof content === "string" ? Buffer.from(content) : content;
  const etag = entityTag(body);
  if (!COMPRESSIBLE.test(contentType)) return { contentType, body, etag, lastModified };
  return {
    contentType,
    body,
    etag,
    lastModified,
    ...(styleSources && styleSources.length > 0 && { styleSources }),
    gzip: gzipSync(body, { level: 6 }),
    br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  };
}

/** A redirect to `location`, a path of the site: kept like any answer, so a hit needs no database either. */
export function makeRedirect(location: string, lastModified: Date): PublicAnswer {
  const body = Buffer.from(`Moved permanently to ${location}\n`);
  return { contentType: "text/plain; charset=utf-8", body, etag: entityTag(body), lastModified, location };
}

const answerBytes = ({ answer }: Entry) => answer.body.length + (answer.gzip?.length ?? 0) + (answer.br?.length ?? 0) + 256;

/** Past this many accounts with a recorded change, the records are dropped and every kept answer is checked once. */
const MAX_TRACKED_OWNERS = 100_000;

export class PublicPageCache {
  private readonly entries: LRUCache<string, Entry>;
  /** Loads under way, by key: concurrent misses of one answer share one. */
  private readonly loading = new Map<string, Promise<CacheResult | null>>();
  /** A logical clock: every change notice and every (re)start of listening moves it on. */
  private clock = 0;
  private readonly changedAt = new Map<string, number>();
  private anyChangeAt = 0;
  private allChangedAt = 0;
  /** Kept answers made before this are checked once more (notices may have been missed before it). */
  private listeningSince = Number.POSITIVE_INFINITY;
  /** When the listener last proved that notices arrive (Date.now()), 0 when it is not listening. */
  private provenAt = 0;

  /** Told of every change learnt and whenever listening is proven anew (changes may have been missed before): ./replay-fence.ts holds read replicas back until they have replayed past it. */
  private readonly changeWatchers: (() => void)[] = [];

  constructor(bytes = CACHE_BYTES) {
    this.entries = new LRUCache<string, Entry>({ maxSize: bytes, sizeCalculation: answerBytes });
  }

  watchChanges(watcher: () => void): void {
    this.changeWatchers.push(watcher);
  }

  private announceChange(): void {
    for (const watcher of this.changeWatchers) watcher();
  }

  /** Listening has (re)started: answers made before now may have missed notices. */
  listeningStarted(): void {
    this.listeningSince = ++this.clock;
  }

  /** Whether changes are known to be heard: a listener proved within LISTENER_TRUST_MS. */
  hearsChanges(now: number): boolean {
    return now - this.provenAt <= LISTENER_TRUST_MS;
  }

  /** A probe notice came back through the listener. */
  listeningProven(now: number): void {
    const anew = !this.hearsChanges(now);
    this.provenAt = now;
    if (anew) this.announceChange();
  }

  /** The listener is gone: every hit is checked against the database until it is back and proven. */
  listeningStopped(): void {
    this.provenAt = 0;
    this.listeningSince = Number.POSITIVE_INFINITY;
  }

  /** The account's public content changed: its answers, and the site-wide ones, are made again. */
  changed(ownerId: string): void {
    if (this.changedAt.size >= MAX_TRACKED_OWNERS) return this.everythingChanged();
    this.anyChangeAt = ++this.clock;
    this.changedAt.set(ownerId, this.clock);
    this.announceChange();
  }

  /** Every account's content changed (a truncation, or too many accounts to track): every answer is checked once. */
  everythingChanged(): void {
    this.changedAt.clear();
    this.allChangedAt = this.anyChangeAt = ++this.clock;
    this.announceChange();
  }

  private trusted(entry: Entry, now: number): boolean {
    if (!this.hearsChanges(now) || entry.checkedAt < this.listeningSince) return false;
    const lastChange = entry.ownerId === null ? this.anyChangeAt : (this.changedAt.get(entry.ownerId) ?? 0);
    return entry.checkedAt >= Math.max(lastChange, this.allChangedAt);
  }

  /**
   * The answer under `key`, with its source and how it was had (`X-Cache`): kept and trusted
   * (HIT); else what `load(kept)` returns (one load at a time per key): the kept one, checked
   * against the database (REVALIDATED); a new one (MISS); or null, nothing at this key (nothing is
   * kept). When the load fails (the database out of reach), the kept one, unchecked (STALE).
   */
  async get(key: string, load: (kept: SourcedAnswer | undefined) => Promise<SourcedAnswer | null>): Promise<CacheResult | null> {
    const kept = this.entries.get(key);
    if (kept && this.trusted(kept, Date.now())) return { ...kept, cache: "HIT" };
    const underway = this.loading.get(key);
    if (underway) return underway;
    const checkedAt = this.clock;
    const loaded = load(kept).then(
      (made): CacheResult | null => {
        if (!made) {
          this.entries.delete(key);
          return null;
        }
        this.entries.set(key, { ...made, checkedAt });
        return { ...made, cache: made === kept ? "REVALIDATED" : "MISS" };
      },
      (error: unknown): CacheResult => {
        // The database is out of reach: readers get the last answer kept rather than an error.
        if (!kept) throw error;
        log.warn({ err: error }, "public page cache: serving a kept answer unchecked");
        return { ...kept, cache: "STALE" };
      },
    );
    this.loading.set(key, loaded);
    try {
      return await loaded;
    } finally {
      this.loading.delete(key);
    }
  }
}

/** The process's cache of pages, feeds, sitemaps and images. */
export const publicPageCache = new PublicPageCache();

/**
 * The process's cache of search pages: told of no change (./change-listener.ts tells the pages'
 * cache only), so each hit reads the account's content version first (one statement by unique
 * key) and a kept answer is served only when made at that version: a change shows on the next search.
 */
export const publicSearchCache = new PublicPageCache(SEARCH_CACHE_BYTES);
