import "server-only";
import { z } from "zod";
import { blogScope } from "~/server/blogs/blog-scope";
import { readNewsletterProgress } from "~/server/newsletters/progress";
import { newsletterProgressSchema } from "~/shared/newsletter";
import { procedure } from "../../trpc";
import { blogIdParams, successEnvelope } from "./schemas";

const newsletterSchema = newsletterProgressSchema
  .extend({
    status: newsletterProgressSchema.shape.status.meta({
      description: "none: not emailed (never asked, or not public yet); sending: under way; sent: every subscriber tried",
    }),
    total: newsletterProgressSchema.shape.total.meta({ description: "Subscribers it goes to: the active ones confirmed when it started" }),
    sent: newsletterProgressSchema.shape.sent.meta({ description: "Emails accepted by the mail server so far" }),
    failed: newsletterProgressSchema.shape.failed.meta({ description: "Emails that could not be delivered (a refused address is marked bounced)" }),
    startedAt: newsletterProgressSchema.shape.startedAt.meta({ description: "When sending started (the blog's emailedAt), ISO 8601; null when none" }),
    finishedAt: newsletterProgressSchema.shape.finishedAt.meta({ description: "When the last email was tried, ISO 8601; null until sent" }),
  })
  .meta({ id: "Newsletter" });

/** GET /api/v1/blogs/{blogId}/newsletter, and the editor's progress line (the owner holds read:analytics). */
export const getNewsletterProcedure = procedure
  .meta({
    permission: "read:analytics",
    minRole: "contributor",
    openapi: {
      method: "GET",
      path: "/blogs/{blogId}/newsletter",
      tags: ["Blogs"],
      summary: "Get a blog's email to subscribers",
      description:
        "The progress of the blog's email to subscribers: a blog with emailSubscribers is emailed once, when it first becomes public. " +
        "status none (with zeros and nulls) until then, or when it never asked.",
    },
    errors: ["RESOURCE_NOT_FOUND"],
  })
  .input(z.object(blogIdParams))
  .output(successEnvelope(z.object({ newsletter: newsletterSchema })))
  .query(async ({ ctx, input }) => {
    const newsletter = await readNewsletterProgress(ctx.db, blogScope(ctx.caller), input.blogId);
    return { success: true as const, data: { newsletter } };
  });
