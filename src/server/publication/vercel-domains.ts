import "server-only";
import type { z } from "zod";
import { env } from "~/env";
import type { Db } from "~/server/db";
import { log } from "~/server/runtime/log";
import type { Publication, publicationUpdateSchema } from "~/shared/publication";
import { getPublication, updatePublication } from "./publication";

/**
 * On Vercel, a custom domain reaches the app only once it is one of the project's domains
 * (docs/deploying.md, Custom domains): with VERCEL_TOKEN and VERCEL_PROJECT_ID set, setting a
 * publication's domain adds it to the project through Vercel's API, and replacing or removing it
 * removes the old one. The setting is kept whatever Vercel answers; its refusal is told to the owner.
 */

/** Longest a call to Vercel's API may take: the owner is waiting for the setting's answer. */
const VERCEL_TIMEOUT_MS = 10_000;

const vercelProject = () => (env.VERCEL_TOKEN && env.VERCEL_PROJECT_ID ? { token: env.VERCEL_TOKEN, projectId: env.VERCEL_PROJECT_ID } : null);

/** A call to the project's domains; the error message Vercel gave when it refused, null when it did it. */
async function callVercel(method: "POST" | "DELETE", path: string, body?: object): Promise<string | null> {
  const project = vercelProject()!;
  const url = new URL(`${env.VERCEL_API_URL}${path.replace("{id}", encodeURIComponent(project.projectId))}`);
  if (env.VERCEL_TEAM_ID) url.searchParams.set("teamId", env.VERCEL_TEAM_ID);
  try {
    const response = await fetch(url, {
      method,
      headers: { Authorization: `Bearer ${project.token}`, ...(body && { "Content-Type": "application/json" }) },
      body: body && JSON.stringify(body),
      signal: AbortSignal.timeout(VERCEL_TIMEOUT_MS),
    });
    if (response.ok || (method === "DELETE" && response.status === 404)) return null;
    const answer = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    return answer?.error?.message ?? `HTTP ${response.status}`;
  } catch (error) {
    return `Vercel's API did not answer (${(error as Error).name})`;
  }
}

/** Moves the project's domain from `previous` to `next` (either null: none); what went wrong, or null. */
async function moveVercelDomain(previous: string | null, next: string | null): Promise<string | null> {
  const problems: string[] = [];
  if (previous !== null) {
    const refused = await callVercel("DELETE", `/v9/projects/{id}/domains/${encodeURIComponent(previous)}`);
    if (refused) problems.push(`Vercel did not remove ${previous} from the project: ${refused}`);
  }
  if (next !== null) {
    const refused = await callVercel("POST", "/v10/projects/{id}/domains", { name: next });
    if (refused) problems.push(`Vercel did not add ${next} to the project: ${refused}`);
  }
  if (problems.length > 0) log.warn({ previous, next, problems }, "custom domain not moved on Vercel");
  return problems.length > 0 ? problems.join("; ") : null;
}

/**
 * `updatePublication`, then, when the domain changed and Vercel is configured, the project's
 * domains: `hostingError` says what Vercel refused (the setting stays saved; clearing the domain
 * and setting it again retries).
 */
export async function updatePublicationAndHosting(
  db: Db,
  accountId: string,
  input: z.output<typeof publicationUpdateSchema>,
): Promise<Publication & { hostingError: string | null }> {
  const previous = input.domain !== undefined && vercelProject() ? (await getPublication(db, accountId)).domain : undefined;
  const publication = await updatePublication(db, accountId, input);
  const moved = previous !== undefined && previous !== publication.domain;
  return { ...publication, hostingError: moved ? await moveVercelDomain(previous, publication.domain) : null };
}
