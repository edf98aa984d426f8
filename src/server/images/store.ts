import "server-only";
import { LRUCache } from "lru-cache";
import { env } from "~/env";
import { postgresImageStore } from "./postgres-store";
import { s3ImageStore } from "./s3-store";
import type { ImageStore } from "./image-store";

let store: ImageStore | undefined;

/** The process's store, chosen by the environment once. */
export function imageStore(): ImageStore {
  store ??= env.S3_BUCKET ? s3ImageStore(env) : postgresImageStore();
  return store;
}

const STORE_FLAGS = { postgres: "images-postgres", s3: "images-s3" } as const;

/**
 * The job flag (graphile-worker's) of work on this process's store's files: an image's variants
 * are made by a worker reading the same store as the server that recorded it, when servers with
 * different stores share a database (a move to S3 under way; the tests' S3 server).
 */
export const imageStoreFlag = () => (env.S3_BUCKET ? STORE_FLAGS.s3 : STORE_FLAGS.postgres);

/** The flags of work on other stores' files, which this process's worker leaves to theirs. */
export const foreignImageStoreFlags = () => Object.values(STORE_FLAGS).filter((flag) => flag !== imageStoreFlag());

/**
 * Files served in the last minute, up to 32 MB of them: a file never changes, so a popular image
 * is read from the store once a minute rather than on every request. A deleted image's files are
 * forgotten here at once; another server process may serve them for up to a minute more, as a
 * CDN may for as long as it keeps them (docs/images.md, Serving).
 */
const recentFiles = new LRUCache<string, Buffer>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (data) => Math.max(1, data.length),
  ttl: 60_000,
});

/** A file's bytes, from memory when served recently; null when there is no such file. */
export async function readImageFile(imageId: string, name: string): Promise<Buffer | null> {
  const key = `${imageId}/${name}`;
  const kept = recentFiles.get(key);
  if (kept) return kept;
  const data = await imageStore().read(imageId, name);
  if (data) recentFiles.set(key, data);
  return data;
}

/** Forgets the kept files of deleted images. */
export function forgetImageFiles(imageIds: string[]): void {
  for (const key of [...recentFiles.keys()]) if (imageIds.some((id) => key.startsWith(`${id}/`))) recentFiles.delete(key);
}
