/** @type {import("next").NextConfig} */
const nextConfig = {
  // Loaded by Node at run time, never bundled into a route: the server core (`@blogmgr/server`,
  // compiled by scripts/lib/server-core.ts), one instance per process for every route and the
  // production server (README.md, Architecture); and packages with Wasm or native-style loading.
  serverExternalPackages: ["@blogmgr/server", "@prisma/client", "pg", "ioredis", "@electric-sql/pglite", "satori"],
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
  // Any address no route claims goes to the public site's route (src/pages/api/public.ts), but the
  // dashboard's, which get its own "Page not found", and Next's own files (/_next/), which the proxy
  // skips and so never gives the route its address (docs/security.md, Header trust).
  async rewrites() {
    return { beforeFiles: [], afterFiles: [], fallback: [{ source: "/:path((?!dashboard(?:/|$)|_next/).*)", destination: "/api/public" }] };
  },
};

export default nextConfig;
