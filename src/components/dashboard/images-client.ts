import type { QueryClient } from "@tanstack/react-query";
import type { ImageView } from "~/server/api/routers/images/schemas";
import { formatBytes } from "~/shared/images";
import { api } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";

/** The account's images as the Images page, the cover picker and the Usage page read them. */
export const imagesPageQuery = (page: number, limit: number) => ({
  queryKey: trpc.images.list.queryKey({ page, limit }),
  queryFn: async () => (await api.images.list.query({ page, limit })).data,
});

/** The Images page's library: a page of the account's images (or the unused ones), each with the blogs using it. */
export const imageLibraryQuery = (page: number, limit: number, unused: boolean) => ({
  queryKey: trpc.images.library.queryKey({ page, limit, unused }),
  queryFn: () => api.images.library.query({ page, limit, unused }),
});

export type LibraryImage = Awaited<ReturnType<typeof api.images.library.query>>["images"][number];

export const IMAGE_STORAGE_QUERY = { queryKey: trpc.images.storage.queryKey(), queryFn: () => api.images.storage.query() };

/** After an upload or a deletion: the lists and the storage used change. Settles once the lists shown are fetched again. */
export async function refreshImages(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [trpc.images.list.queryKey(), trpc.images.library.queryKey(), IMAGE_STORAGE_QUERY.queryKey].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

/** The image as the owner recognizes it: "640×480 PNG, 12.3 kB". */
export function describeImage(image: ImageView): string {
  return `${image.width}×${image.height} ${image.contentType.replace("image/", "").toUpperCase()}, ${formatBytes(image.bytes)}`;
}

/**
 * Markdown showing `image` with `alt` ("" for a decorative one): its path, not its URL, so the
 * blog reads the same at any origin the app is served from. The characters that would end the alt
 * text early are escaped.
 */
export function imageMarkdown(image: ImageView, alt: string): string {
  return `![${alt.replace(/[\\[\]]/g, "\\$&")}](${new URL(image.url).pathname})`;
}
