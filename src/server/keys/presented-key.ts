import "server-only";
/** Where a request may carry its key (README, The API). */
export interface KeySources {
  xApiKey: string | null;
  authorization: string | null;
  queryApiKey: string | null;
}

/**
 * The key a request presents, or null when it presents none. `x-api-key` wins over
 * `Authorization: Bearer`, which wins over `?api_key=`; an empty value, or an Authorization
 * header of another scheme, counts as no key (README, The API).
 */
export function presentedApiKey({ xApiKey, authorization, queryApiKey }: KeySources): string | null {
  const fromHeader = xApiKey?.trim();
  if (fromHeader) return fromHeader;
  const bearer = /^Bearer\s+(.+)$/i.exec(authorization?.trim() ?? "")?.[1]?.trim();
  if (bearer) return bearer;
  return queryApiKey?.trim() || null;
}
