import { z } from "zod";

/**
 * A post's newsletter as `GET /api/v1/blogs/{id}/newsletter` and the dashboard show it
 * (docs/newsletters.md): `none` until the post starts sending (it never asked, or is not public yet).
 */
export const NEWSLETTER_STATUSES = ["none", "sending", "sent"] as const;

export const newsletterProgressSchema = z.object({
  status: z.enum(NEWSLETTER_STATUSES),
  total: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  startedAt: z.iso.datetime().nullable(),
  finishedAt: z.iso.datetime().nullable(),
});
export type NewsletterProgress = z.infer<typeof newsletterProgressSchema>;

export const NO_NEWSLETTER: NewsletterProgress = { status: "none", total: 0, sent: 0, failed: 0, startedAt: null, finishedAt: null };
