import type { Metadata } from "next";
import { PublicBlogIndex, publicIndexMetadata } from "../../public-blog-index";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ handle: string; tagSlug: string }>; searchParams: Promise<{ page?: string | string[] }> };

export async function generateMetadata({ params, searchParams }: Params): Promise<Metadata> {
  const { handle, tagSlug } = await params;
  return publicIndexMetadata({ handle, tagSlug, page: (await searchParams).page });
}

/** A tag's page: the account's public blogs carrying it, as the index lists them; 404 for a tag no public blog carries. */
export default async function PublicTagPage({ params, searchParams }: Params) {
  const { handle, tagSlug } = await params;
  return <PublicBlogIndex handle={handle} tagSlug={tagSlug} page={(await searchParams).page} />;
}
