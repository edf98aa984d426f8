import "server-only";
/**
 * What Next's routes, pages and proxy use of the server core, imported as `@blogmgr/server`: the
 * core compiled once (scripts/lib/server-core.ts) and loaded by Node, not bundled into each of Next's
 * route bundles, so a process holds one copy of every module (its pool, caches, limiters) whatever
 * the entry: the production server, Next's App and Pages Router routes, Vercel's functions.
 */
export { env } from "~/env";
export { safeNextPath } from "./accounts/safe-next-path";
export { handleDashboardRequest } from "./api/dashboard/handler";
export { handleExportRequest } from "./api/dashboard/export";
export { ApiError, errorEnvelope } from "./api/errors";
export { handleApiRequest } from "./api/rest/handler";
export { getSessionUser, handleAuthRequest, sessionMember, type SessionMember, type SessionUser } from "./auth";
export { readPersonProfile } from "./auth/profile";
export { sessionDatabaseUrl } from "./db";
export { runDueJobs } from "./jobs/worker";
export { invitationPageState, type InvitationState } from "./members/invitations";
export { sessionPublications } from "./members/members";
export { configuredOrigin, publicApiBaseUrl } from "./http/public-origin";
export { accountCacheTag, siteWideCacheTag } from "./public-site/forget";
export { handlePublicRequest } from "./public-site/handler";
export { parsePublicRoute, PUBLIC_URL_HEADER } from "./public-site/routes";
export { isVerifiedDomainHost } from "./publication/domains";
export { cspNonce, NO_STORE, pageContentSecurityPolicy, SECURITY_HEADERS } from "./http/security-headers";
