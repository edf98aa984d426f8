/**
 * A custom domain's verification record (docs/public-blog.md, Custom domains): the owner puts the
 * token shown into a TXT record at `_blogmgr.<domain>`; the dashboard and the server name it alike.
 */
export const DOMAIN_RECORD_PREFIX = "_blogmgr";

export const domainRecordName = (domain: string) => `${DOMAIN_RECORD_PREFIX}.${domain}`;
