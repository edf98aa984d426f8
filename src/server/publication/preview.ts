import "server-only";
import type { z } from "zod";
import type { Db } from "~/server/db";
import { getSqlPool } from "~/server/db";
import { listPublicBlogs } from "~/server/blogs/public-blogs";
import { renderIndexPage } from "~/server/public-site/pages";
import type { Publication, publicationUpdateSchema } from "~/shared/publication";
import { imageColumn, toPublication } from "./publication";

/**
 * The publication's home as readers would see it with `draft` over the saved settings (docs/dashboard.md,
 * Publication): the public site's own renderer on the account's first page of public blogs, so the
 * dashboard's preview is exact. Nothing is written; image ids are checked as `updatePublication` checks them.
 */
export async function renderPublicationPreview(db: Db, accountId: string, origin: string, draft: z.output<typeof publicationUpdateSchema>): Promise<string> {
  const owner = await db.user.findUniqueOrThrow({ where: { id: accountId }, select: { name: true, handle: true, publication: true } });
  await imageColumn(db, accountId, "logo", draft.logo);
  await imageColumn(db, accountId, "icon", draft.icon);
  const saved = toPublication(owner.publication, owner.name);
  const publication: Publication = { ...saved, ...draft, title: draft.title === undefined ? saved.title : (draft.title ?? owner.name) };
  const { blogs, hasOlder } = await listPublicBlogs(getSqlPool(), accountId, 1);
  // TODO(merge): pass `publication` to renderIndexPage once it takes one; until then its title stands in for the owner's name.
  const html = renderIndexPage(origin, { owner: { name: publication.title, handle: owner.handle }, tag: null, page: 1, hasOlder, blogs });
  // Links aim at a new window, which the dashboard's sandboxed frame refuses to open: the preview stays on its page.
  return html.replace("<head>", '<head><base target="_blank">');
}
