import "server-only";
import { z } from "zod";
import { findBlog } from "~/server/blogs/find-blog";
import { blogScope } from "~/server/blogs/blog-scope";
import { procedure } from "../../trpc";
import { blogAnswer } from "./blog-entity-tag";
import { blogIdParams, blogOutput } from "./schemas";

export const getBlogProcedure = procedure
  .meta({
    permission: "read:blogs",
    minRole: "contributor",
    openapi: { method: "GET", path: "/blogs/{blogId}", tags: ["Blogs"], summary: "Get a blog by id" },
    errors: ["RESOURCE_NOT_FOUND"],
  })
  .input(z.object(blogIdParams))
  .output(blogOutput)
  .query(async ({ ctx, input }) => {
    return blogAnswer(await findBlog(ctx.db, blogScope(ctx.caller), { id: input.blogId }));
  });
