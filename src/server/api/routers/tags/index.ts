import "server-only";
import { z } from "zod";
import { blogScope } from "~/server/blogs/blog-scope";
import { listTags } from "~/server/blogs/tags";
import { createTRPCRouter, procedure } from "../../trpc";
import { successEnvelope } from "../blogs/schemas";

const tagSchema = z
  .object({
    slug: z.string().meta({ description: "The tag's slug: what ?tag= and the public tag pages match" }),
    name: z.string().meta({ description: "As written on the most recently updated blog carrying it" }),
    count: z.int().meta({ description: "Blogs carrying it" }),
  })
  .meta({ id: "Tag" });

/** The account's tags, for keys (/api/v1/tags) and the owner's tag suggestions alike. */
export const tagsRouter = createTRPCRouter({
  list: procedure
    .meta({
      permission: "read:blogs",
      minRole: "contributor",
      openapi: {
        method: "GET",
        path: "/tags",
        tags: ["Tags"],
        summary: "List tags",
        description: "The tags on the caller's blogs with API access, with how many blogs carry each, most used first.",
      },
    })
    .input(z.object({}))
    .output(successEnvelope(z.object({ tags: z.array(tagSchema) })))
    .query(async ({ ctx }) => ({ success: true as const, data: { tags: await listTags(ctx.sql, blogScope(ctx.caller)) } })),
});
