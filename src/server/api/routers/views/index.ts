import "server-only";
import { createTRPCRouter } from "../../trpc";
import { getViewsProcedure } from "./get-views";

/** Readers' views of the public pages (docs/public-blog.md, Views). */
export const viewsRouter = createTRPCRouter({
  get: getViewsProcedure,
});
