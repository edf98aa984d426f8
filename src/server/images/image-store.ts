import "server-only";
import type { Prisma } from "~/generated/prisma/client";

/** A file to store: its name in the image's URL and its bytes. */
export interface StoredFile {
  name: string;
  data: Buffer;
}

/**
 * Where images' files live (docs/images.md): PostgreSQL by default (nothing else to run), an
 * S3-compatible bucket when S3_BUCKET is set. The image rows are PostgreSQL's either way; a store
 * holds only bytes, by image id and file name.
 */
export interface ImageStore {
  /** Stores a new image's files. `tx` is the transaction recording the image: the PostgreSQL store writes in it. */
  save(tx: Prisma.TransactionClient, imageId: string, files: StoredFile[]): Promise<void>;
  /** A file's bytes; null when there is no such file. */
  read(imageId: string, name: string): Promise<Buffer | null>;
  /** The image's stored files' names and sizes in bytes. */
  sizes(imageId: string): Promise<Map<string, number>>;
  /** Removes every file of these images (their rows are gone or going; PostgreSQL's files go with them). */
  remove(imageIds: string[]): Promise<void>;
}
