import { z } from "zod";

/**
 * Every environment variable the app reads, validated once. All are optional: without
 * DATABASE_URL the launcher (scripts/serve.ts) starts embedded PostgreSQL and passes its URL on;
 * without Redis settings rate limits are kept in process.
 */
const schema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  DATABASE_URL: z.url().optional(),
  /** Connections per server process; small by default since serverless instances multiply it. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  REDIS_URL: z.url().optional(),
  UPSTASH_REDIS_REST_URL: z.url().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
  /** Where embedded PostgreSQL keeps its data when DATABASE_URL is unset. */
  DATA_DIR: z.string().default(".data"),
});

export type Env = z.infer<typeof schema>;

function readEnv(): Env {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    throw new Error(`Invalid environment:\n${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

export const env = readEnv();
