import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

export default [
  { ignores: ["node_modules/", ".next/", "src/generated/", ".data/", "test-results/", "playwright-report/", "next-env.d.ts"] },
  ...nextCoreWebVitals,
  ...nextTypescript,
];
