// Run before each integration and cluster test file (vitest.config.ts).
import { printServerLogsOnFailure } from "./server-logs";

printServerLogsOnFailure();
