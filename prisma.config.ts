import { defineConfig } from "prisma/config";

// DATABASE_URL is only needed by commands that reach the database (not by `prisma generate`);
// DIRECT_URL, when set, is the same database without a pooler (docs/deploying.md).
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DIRECT_URL || process.env.DATABASE_URL || "postgresql://localhost:5432/blogmgr" },
});
