import "server-only";
// Accounts in the browser (better-auth): what the rest of the app and the tests use.
export { getAuth, type Auth } from "./config";
export { AUTH_MAX_BODY_BYTES, handleAuthRequest } from "./door";
export { AUTH_ENDPOINTS } from "./endpoint-policies";
export { getSessionUser, sessionMember, type ActivePublication, type SessionMember, type SessionUser } from "./session-user";
export { AUTH_ATTEMPTS_PER_MINUTE, SIGN_IN_BACKOFF } from "./sign-in-throttle";
