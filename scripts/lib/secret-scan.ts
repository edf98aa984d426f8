/**
 * What must never appear in the server's log (docs/security.md): an API key, a password the tests
 * use, a better-auth session cookie or token, an `api_key=` query. `npm test` scans the production
 * server's output with these after the run.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

export interface SecretFinding {
  /** 1-based line number in the log. */
  line: number;
  kind: string;
}

export interface KnownSecrets {
  passwords: string[];
  /** Session tokens the run created (the database's `session.token`). */
  sessionTokens: string[];
}

const PATTERNS: [kind: string, pattern: RegExp][] = [
  ["API key", /bm_[a-z0-9]{64}/],
  ["api_key query", /api_key=/i],
  ["session cookie", /session_token=/i],
  // better-auth's signed cookie value: a 32-character token, a dot, an HMAC-SHA256 in base64 (maybe URL-encoded).
  ["signed session token", /[A-Za-z0-9]{32}\.(?:[A-Za-z0-9+/]|%2[BF]){43}(?:=|%3D)/i],
];

/** Every line of `log` that holds a secret, with what kind; empty when the log is clean. */
export function findSecrets(log: string, known: KnownSecrets): SecretFinding[] {
  const checks: [string, (line: string) => boolean][] = [
    ...PATTERNS.map(([kind, pattern]): [string, (line: string) => boolean] => [kind, (line) => pattern.test(line)]),
    ...known.passwords.map((password): [string, (line: string) => boolean] => [`password "${password}"`, (line) => line.includes(password)]),
    ...known.sessionTokens.map((token): [string, (line: string) => boolean] => ["session token", (line) => line.includes(token)]),
  ];
  const findings: SecretFinding[] = [];
  log.split("\n").forEach((text, index) => {
    for (const [kind, holds] of checks) if (holds(text)) findings.push({ line: index + 1, kind });
  });
  return findings;
}

// `password: "x"`, `PASSWORD = "x"`, `"--password", "x"`: the literal that follows a password name.
const PASSWORD_LITERAL = /password\w*["']?\s*[:=,]\s*["'`]([^"'`\n]{8,128})["'`]/gi;

/** The passwords the tests under `dirs` type or send, read from their sources. */
export async function passwordsInTests(dirs: string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const dir of dirs) {
    const files = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
    for (const file of files.filter((name) => /\.tsx?$/.test(name))) {
      const source = await readFile(join(dir, file), "utf8");
      for (const match of source.matchAll(PASSWORD_LITERAL)) found.add(match[1]!);
    }
  }
  return [...found];
}
