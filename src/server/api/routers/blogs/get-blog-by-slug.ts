import "server-only";
import { z } from "zod";
import { findBlog } from "~/server/blogs/find-blog";
import { blogScope } from "~/server/blogs/blog-scope";
import { procedure } from "../../trpc";
import { blogOutput } from "./schemas";

export const getBlogBySlugProcedure = procedure
  .meta({
    permission: "read:blogs",
    minRole: "contributor",
    openapi: { method: "GET", path: "/blogs/slug/{blogSlug}", tags: ["Blogs"], summary: "Get a blog by slug" },
    errors: ["RESOURCE_NOT_FOUND"],
  })
  .input(z.object({ blogSlug: z.string().min(1).meta({ description: "The blog's slug" }) }))
  .output(blogOutput)
  .query(async ({ ctx, input }) => {
    const blog = await findBlog(ctx.db, blogScope(ctx.caller), { blogSlug: input.blogSlug });
    return { success: true as const, data: { blog } };
  });
