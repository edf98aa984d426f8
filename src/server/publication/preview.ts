import "server-only";
import type { z } from "zod";
import type { Db } from "~/server/db";
import { getSqlPool } from "~/server/db";
import { listPublicBlogs } from "~/server/blogs/public-blogs";
import { postSummary, renderIndexPage } from "~/server/public-site/pages";
import { publicationView } from "~/server/public-site/publication-view";
import type { Publication, publicationUpdateSchema } from "~/shared/publication";
import { imageColumn, publicationRecord, toPublication } from "./publication";

/**
 * The publication's home as readers would see it with `draft` over the saved settings (docs/dashboard.md,
 * Publication): the public site's own renderer on the account's first page of public blogs, so the
 * dashboard's preview is exact. Nothing is written; image ids are checked as `updatePublication` checks them.
 */
export async function renderPublicationPreview(db: Db, accountId: string, origin: string, draft: z.output<typeof publicationUpdateSchema>): Promise<string> {
  const owner = await publicationRecord(db, accountId);
  await imageColumn(db, accountId, "logo", draft.logo);
  await imageColumn(db, accountId, "icon", draft.icon);
  const saved = toPublication(owner.settings, owner.ownerName);
  const publication: Publication = { ...saved, ...draft, title: draft.title === undefined ? saved.title : (draft.title ?? owner.ownerName) };
  const pool = getSqlPool();
  const { blogs, hasOlder } = await listPublicBlogs(pool, accountId, 1);
  const site = await publicationView(pool, publication, origin, `${origin}/${owner.handle}`);
  const html = renderIndexPage(site, { tag: null, page: 1, hasOlder, blogs: blogs.map(postSummary) });
  // Links aim at a new window, which the dashboard's sandboxed frame refuses to open: the preview stays on its page.
  return html.replace("<head>", '<head><base target="_blank">');
}
