import { createTRPCRouter } from "../../trpc";
import { listBlogsProcedure } from "./list-blogs";

export const blogsRouter = createTRPCRouter({
  list: listBlogsProcedure,
});
