/** @type {import("next").NextConfig} */
const nextConfig = {
  // Packages with Wasm or native-style loading that must stay plain Node requires on the server.
  serverExternalPackages: ["@prisma/client", "pg", "ioredis", "@electric-sql/pglite"],
  poweredByHeader: false,
  // Modules under src/server import `server-only`, which throws outside React's server condition. The
  // Pages Router route of /api/v1 runs outside it: bundle the package there, as its empty module.
  transpilePackages: ["server-only"],
  // Any address no route claims goes to the public site's route (src/pages/api/public.ts), but the
  // dashboard's, which get its own "Page not found", and Next's own files (/_next/), which the proxy
  // skips and so never gives the route its address (docs/security.md, Header trust).
  async rewrites() {
    return { beforeFiles: [], afterFiles: [], fallback: [{ source: "/:path((?!dashboard(?:/|$)|_next/).*)", destination: "/api/public" }] };
  },
  turbopack: { resolveAlias: { "server-only": { node: "next/dist/compiled/server-only/empty" } } },
};

export default nextConfig;
