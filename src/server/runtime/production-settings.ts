import "server-only";
/**
 * The settings a deployment on Vercel cannot run safely without (docs/security.md): there every
 * instance is a separate process, so a per-process session secret would sign users out between
 * instances, and limits kept in one instance's memory would not limit anything. Missing ones are
 * refused rather than degraded; so is email, which there cannot fall back to a log anyone reads. A single machine (`npm start`) may go without: the launcher keeps
 * a generated secret under DATA_DIR and limits in process, and says so at start.
 */

/** One line naming every missing variable, or undefined when the environment is complete. */
export function missingDeploymentSettings(environment: Record<string, string | undefined>): string | undefined {
  if (environment.VERCEL !== "1") return undefined;
  const isSet = (name: string) => Boolean(environment[name]);
  const problems: string[] = [];
  if (!isSet("DATABASE_URL")) problems.push("DATABASE_URL is not set (a PostgreSQL server)");
  if (!isSet("BETTER_AUTH_SECRET")) problems.push("BETTER_AUTH_SECRET is not set (e.g. `openssl rand -hex 32`; every instance must sign sessions with it)");
  if (!isSet("BETTER_AUTH_URL") && !isSet("VERCEL_PROJECT_PRODUCTION_URL")) {
    problems.push("no public origin: set BETTER_AUTH_URL (e.g. https://blogs.example.com)");
  }
  const hasUpstash = isSet("UPSTASH_REDIS_REST_URL") && isSet("UPSTASH_REDIS_REST_TOKEN");
  if (!hasUpstash && !isSet("REDIS_URL")) {
    problems.push("no shared rate-limit store: set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN, or REDIS_URL");
  }
  if (!isSet("SMTP_URL")) problems.push("SMTP_URL is not set (e.g. smtps://user:password@smtp.example.com:465; verification and reset links are emailed)");
  if (!isSet("EMAIL_FROM")) problems.push("EMAIL_FROM is not set (e.g. Blog Manager <no-reply@example.com>)");
  return problems.length ? `Refusing to start on Vercel: ${problems.join("; ")}` : undefined;
}
