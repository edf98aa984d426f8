import type { Metadata } from "next";
import { PublicBlogIndex, publicIndexMetadata } from "./public-blog-index";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ handle: string }>; searchParams: Promise<{ page?: string | string[] }> };

export async function generateMetadata({ params, searchParams }: Params): Promise<Metadata> {
  return publicIndexMetadata({ handle: (await params).handle, page: (await searchParams).page });
}

/**
 * An account's public blogs, newest first, 20 a page (`?page=N`); 404 for an unknown handle, an
 * account with no public blog, a page past the last, or a `page` that is not a whole number from 1.
 */
export default async function PublicIndexPage({ params, searchParams }: Params) {
  return <PublicBlogIndex handle={(await params).handle} page={(await searchParams).page} />;
}
