import { createTRPCRouter } from "../../trpc";
import { createBlogProcedure } from "./create-blog";
import { deleteBlogProcedure } from "./delete-blog";
import { getBlogProcedure } from "./get-blog";
import { getBlogBySlugProcedure } from "./get-blog-by-slug";
import { listBlogsProcedure } from "./list-blogs";
import { ownerCreateBlogProcedure } from "./owner-create-blog";
import { ownerDeleteBlogProcedure } from "./owner-delete-blog";
import { ownerGetBlogProcedure } from "./owner-get-blog";
import { ownerListBlogsProcedure } from "./owner-list-blogs";
import { ownerUpdateBlogProcedure } from "./owner-update-blog";
import { patchBlogProcedure, putBlogProcedure } from "./update-blog";

export const blogsRouter = createTRPCRouter({
  list: listBlogsProcedure,
  get: getBlogProcedure,
  getBySlug: getBlogBySlugProcedure,
  create: createBlogProcedure,
  update: putBlogProcedure,
  patch: patchBlogProcedure,
  delete: deleteBlogProcedure,
  // The dashboard's (session, no OpenAPI meta: not part of /api/v1).
  ownerList: ownerListBlogsProcedure,
  ownerGet: ownerGetBlogProcedure,
  ownerCreate: ownerCreateBlogProcedure,
  ownerUpdate: ownerUpdateBlogProcedure,
  ownerDelete: ownerDeleteBlogProcedure,
});
