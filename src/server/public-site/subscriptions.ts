import "server-only";
import { getDb, getSqlPool } from "../db";
import { findPublicOwner, type PublicOwner } from "../blogs/public-blogs";
import { emailLinkOrigin } from "../email/account-emails";
import { sendQueuedEmailsOnVercel } from "../email/queue-email";
import { readPublication } from "../publication/publication";
import { unsubscribeUrl } from "../subscribers/links";
import { confirmSubscription, findManagedSubscriber, maskEmail, requestSubscription, unsubscribe } from "../subscribers/public-subscriptions";
import { styled, type PublicSite, type StyledPage } from "./answers";
import { publicationHome } from "./home";
import { renderConfirmationLinkPage, renderManageSubscriptionPage, renderNotFoundPage, renderSubscriptionConfirmedPage } from "./pages";
import { readPublicationView } from "./publication-view";

/**
 * The public site's side of subscribing (docs/newsletters.md, Subscribing): the subscribe form's
 * post, the confirmation link and the unsubscribe link, each in its publication's pages. Never
 * cached (they act on a secret, or on an address), read and written on the primary database.
 */

/** A page and its HTTP status. */
export interface SubscriberAnswer {
  status: number;
  page: StyledPage;
}

/**
 * The subscribe form's valid post of `email` to `owner`'s publication (../subscribers/public-subscriptions.ts).
 * Its confirmation link is under the publication's home where the form was: the verified custom
 * domain, else the app's configured origin (never a Host the request may have forged); without
 * one, nothing is done (the log says why).
 */
export async function subscribeFromForm(site: PublicSite, owner: PublicOwner, email: string): Promise<void> {
  const origin = site.onDomain ? site.origin : emailLinkOrigin(site.origin);
  if (!origin) return;
  const { title } = await readPublication(getSqlPool(), owner);
  const outcome = await requestSubscription(getDb(), { accountId: owner.id, home: publicationHome(origin, owner.handle, site.onDomain), title }, email);
  if (outcome === "confirmation sent") sendQueuedEmailsOnVercel();
}

/** The publication under `handle` as its pages show it at `site`; null for an unknown handle. */
async function publicationAt(site: PublicSite, handle: string) {
  const pool = getSqlPool();
  const owner = await findPublicOwner(pool, handle);
  if (!owner) return null;
  return { owner, view: await readPublicationView(pool, owner, site.origin, publicationHome(site.origin, owner.handle, site.onDomain)) };
}

/**
 * A confirmation link followed: 200 "You're subscribed", 410 once expired, 404 for a link that is
 * none (used, replaced, another publication's); null for an unknown handle. `write` false (HEAD)
 * confirms nothing.
 */
export async function confirmationAnswer(site: PublicSite, handle: string, token: string, { write }: { write: boolean }): Promise<SubscriberAnswer | null> {
  const publication = await publicationAt(site, handle);
  if (!publication) return null;
  const { owner, view } = publication;
  const outcome = await confirmSubscription(getDb(), owner.id, token, { write });
  if (typeof outcome === "string") return { status: outcome === "expired" ? 410 : 404, page: styled(view, renderConfirmationLinkPage(view, outcome)) };
  return { status: 200, page: styled(view, renderSubscriptionConfirmedPage(view, unsubscribeUrl(view.home, outcome.unsubscribeToken))) };
}

/**
 * The unsubscribe link: its page (GET, which changes nothing) or its post (a reader's button, a mail
 * provider's one-click), which unsubscribes first; the publication's 404 for a token that is none,
 * null for an unknown handle.
 */
export async function unsubscribeAnswer(site: PublicSite, handle: string, token: string, { unsubscribeNow }: { unsubscribeNow: boolean }): Promise<SubscriberAnswer | null> {
  const publication = await publicationAt(site, handle);
  if (!publication) return null;
  const { owner, view } = publication;
  const db = getDb();
  const subscriber = unsubscribeNow ? await unsubscribe(db, owner.id, token) : await findManagedSubscriber(db, owner.id, token);
  if (!subscriber) return { status: 404, page: styled(view, renderNotFoundPage(view)) };
  const page = renderManageSubscriptionPage(view, {
    maskedEmail: maskEmail(subscriber.email),
    status: subscriber.status,
    action: unsubscribeUrl(view.home, token),
    unsubscribedNow: unsubscribeNow && subscriber.status === "unsubscribed",
  });
  return { status: 200, page: styled(view, page) };
}
