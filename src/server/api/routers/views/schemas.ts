import "server-only";
import { z } from "zod";
import { VIEWS_LIST_LIMIT } from "~/server/views/get-views";

/** The API's contract for readers' views: the range as GET /analytics takes it, and the answer. */

const dateSchema = z.string().meta({ format: "date", example: "2026-01-31" });
const viewCount = z.int().min(0);

const viewsSchema = z
  .object({
    from: dateSchema.meta({ description: "First day of the range (UTC, inclusive)" }),
    to: dateSchema.meta({ description: "Last day of the range (UTC, inclusive)" }),
    total: viewCount.meta({ description: "Every view in the range: posts, the index, tag pages and search" }),
    daily: z
      .array(z.object({ date: dateSchema.meta({ description: "The UTC day" }), views: viewCount.meta({ description: "Views that day" }) }))
      .meta({ description: "One entry per day of the range, ascending, days without views included as zeros" }),
    blogs: z
      .array(
        z.object({
          id: z.string().meta({ description: "Identifier of the blog" }),
          blogSlug: z.string().meta({ description: "Its slug now" }),
          title: z.string().meta({ description: "Its title now" }),
          views: viewCount.meta({ description: "Views of its page in the range" }),
        }),
      )
      .meta({ description: `Posts viewed in the range, most viewed first, at most ${VIEWS_LIST_LIMIT}; deleted blogs are left out` }),
    referrers: z
      .array(
        z.object({
          host: z.string().nullable().meta({ description: "Host of the Referer (with its port, if any); null: no referrer, or the site's own pages" }),
          views: viewCount.meta({ description: "Views that came from it in the range" }),
        }),
      )
      .meta({ description: `Referrer hosts, most views first, at most ${VIEWS_LIST_LIMIT}` }),
  })
  .meta({ id: "Views", description: "Readers' views of the account's public pages over whole UTC days" });

export const getViewsOutput = z.object({ success: z.literal(true), data: viewsSchema });
