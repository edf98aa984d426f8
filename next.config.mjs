/** @type {import("next").NextConfig} */
const nextConfig = {
  // Packages with Wasm or native-style loading that must stay plain Node requires on the server.
  serverExternalPackages: ["@prisma/client", "pg", "ioredis", "@electric-sql/pglite"],
  poweredByHeader: false,
};

export default nextConfig;
