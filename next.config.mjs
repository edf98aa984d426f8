/** @type {import("next").NextConfig} */
const nextConfig = {
  // Packages with Wasm or native-style loading that must stay plain Node requires on the server.
  serverExternalPackages: ["@prisma/client", "pg", "ioredis", "@electric-sql/pglite", "satori"],
  // Share images' fonts and emoji, read from disk by path (src/server/public-site/share-image-assets.ts):
  // the regular faces in WOFF and Twemoji's SVGs, not the packages' other weights and formats.
  outputFileTracingIncludes: {
    "/api/public": [
      "./node_modules/@fontsource/noto-sans*/400.css",
      "./node_modules/@fontsource/noto-sans*/files/*-400-normal.woff",
      "./node_modules/@discordapp/twemoji/dist/svg/*.svg",
    ],
  },
  poweredByHeader: false,
  // Next's image optimizer (/_next/image) stays off: stored images have their own variants, and it
  // would decode them at any width in the server's process and keep deleted ones in its cache
  // (docs/images.md, Serving). Off, Next answers 404; no local or remote source is allowed either,
  // for an optimizer that reads only the build's images manifest (Vercel's).
  images: { unoptimized: true, localPatterns: [], remotePatterns: [] },
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
