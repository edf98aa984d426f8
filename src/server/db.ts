import { PrismaPg } from "@prisma/adapter-pg";
import { env } from "~/env";
import { PrismaClient } from "~/generated/prisma/client";

export type Db = PrismaClient;

function createDb(): Db {
  if (!env.DATABASE_URL) {
    throw new Error("DATABASE_URL is not set: start the app with `npm run dev` or `npm start`, which provide one");
  }
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString: env.DATABASE_URL, max: env.DATABASE_POOL_SIZE }),
  });
}

// One client per process; kept on globalThis so hot reloads in development reuse it.
const globalForDb = globalThis as unknown as { db?: Db };

export function getDb(): Db {
  globalForDb.db ??= createDb();
  return globalForDb.db;
}
