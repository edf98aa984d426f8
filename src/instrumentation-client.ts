import { config } from "zod/v4/core";

// Runs in the browser before the app's code. Zod probes whether it may compile its parsers with
// `new Function`; the CSP forbids eval (docs/security.md) and reports the probe as a violation,
// although zod then falls back to its interpreter. Server-side parsing keeps compiled parsers.
config({ jitless: true });
