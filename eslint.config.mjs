import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  { ignores: ["node_modules/", ".next/", "src/generated/", ".data/", "test-results/", "playwright-report/", "next-env.d.ts"] },
  ...nextCoreWebVitals,
  ...nextTypescript,
  // Tests read JSON bodies whose shape they are asserting: `any` is the honest type there.
  { files: ["tests/**", "e2e/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
];

export default config;
