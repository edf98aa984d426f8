import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  { ignores: ["node_modules/", ".next/", "src/generated/", "clients/typescript/schema.d.ts", ".data/", "test-results/", "playwright-report/", "next-env.d.ts"] },
  ...nextCoreWebVitals,
  ...nextTypescript,
  // Browser code reaches src/server only for types: values come from src/shared, so nothing
  // server-only (database, secrets, Node built-ins) can be bundled for the browser (README, Architecture).
  {
    files: ["src/components/**", "src/lib/**", "src/trpc/**", "src/shared/**", "src/instrumentation-client.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              // tRPC's observables are the client links' building block, made for the browser.
              group: ["~/server", "~/server/*", "~/env", "~/generated/prisma/client", "**/server/*", "!@trpc/server/observable", "node:*"],
              allowTypeImports: true,
              message: "Browser code imports server modules for their types only; move a shared rule to src/shared/.",
            },
          ],
        },
      ],
    },
  },
  // Next's server side (routes, pages, proxy) takes the server core's values from `@blogmgr/server`, the
  // one instance per process (README.md, Architecture): a module of src/server imported here would be
  // bundled as a second copy.
  {
    files: ["src/app/**", "src/pages/**", "src/proxy.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/server", "~/server/*", "~/env", "**/server/*", "!@trpc/server/*", "!@blogmgr/server"],
              allowTypeImports: true,
              message: "Import the server core's values from @blogmgr/server (src/server/index.ts).",
            },
          ],
        },
      ],
    },
  },
  // src/shared is plain rules, bundled for the browser and the server alike: it imports no server module at all.
  {
    files: ["src/shared/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ group: ["~/server", "~/server/*", "~/env", "~/generated/prisma/client", "**/server/*", "node:*"], message: "src/shared imports no server module (README, Architecture)." }] },
      ],
    },
  },
  // The public site's pages are static HTML rendered outside Next (src/server/public-site/pages.tsx):
  // a whole document with plain links, no client-side navigation.
  { files: ["src/server/public-site/**"], rules: { "@next/next/no-head-element": "off", "@next/next/no-html-link-for-pages": "off" } },
  // Tests read JSON bodies whose shape they are asserting: `any` is the honest type there.
  { files: ["tests/**", "e2e/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
];

export default config;
