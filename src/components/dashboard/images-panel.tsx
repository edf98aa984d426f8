"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { EmptyState, Loading, Skeleton } from "~/components/ui/card";
import { CopyButton } from "~/components/ui/copy-button";
import { ConfirmDialog } from "~/components/ui/dialog";
import { LocalTime } from "~/components/ui/local-time";
import { Pagination } from "~/components/ui/pagination";
import type { ImageView } from "~/server/api/routers/images/schemas";
import { api, errorMessage } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { ChooseImageButton, UploadStatus, useImageUpload } from "./image-upload";
import { ImageThumbnail } from "./image-thumbnail";
import { describeImage, imageMarkdown, imagesPageQuery, refreshImages } from "./images-client";
import { LoadError } from "./load-error";

const PAGE_SIZE = 12;

/** The Images page: the account's images, newest first, to upload, copy into Markdown and delete. */
export function ImagesPanel() {
  const [page, setPage] = useState(1);
  const [deleteError, setDeleteError] = useState("");
  const list = useQuery({ ...imagesPageQuery(page, PAGE_SIZE), placeholderData: keepPreviousData });
  // The new image is the newest: on the first page.
  const upload = useImageUpload(() => setPage(1));
  const data = list.data;

  return (
    <div className="space-y-4">
      <div className="space-y-2">
        <div className="flex flex-wrap items-center gap-3">
          <ChooseImageButton upload={upload} label="Upload image" variant="primary" />
          <span className="text-sm text-slate-600" aria-live="polite">
            {data ? `${data.pagination.total} image${data.pagination.total === 1 ? "" : "s"}` : ""}
          </span>
        </div>
        <UploadStatus upload={upload} />
        {deleteError && (
          <p role="alert" className="text-sm text-red-600">
            {deleteError}
          </p>
        )}
      </div>

      {list.error && <LoadError what="your images" error={list.error} onRetry={() => void list.refetch()} retrying={list.isFetching} />}
      {!data ? (
        !list.error && (
          <Loading label="Loading images" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {Array.from({ length: 3 }, (_, i) => (
              <Skeleton key={i} className="h-72 w-full" />
            ))}
          </Loading>
        )
      ) : data.images.length === 0 ? (
        <EmptyState title="No images yet">
          Upload one here, or paste or drop one into a blog&apos;s content as you write.
        </EmptyState>
      ) : (
        <ul aria-label="Your images" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {data.images.map((image) => (
            <ImageCard
              key={image.id}
              image={image}
              onDeleted={() => {
                setDeleteError("");
                // The page's last image gone: the page before, which still has some.
                if (data.images.length === 1 && page > 1) setPage(page - 1);
              }}
              onDeleteFailed={(error) => setDeleteError(errorMessage(error))}
            />
          ))}
        </ul>
      )}

      {data && <Pagination pagination={data.pagination} onStep={(step) => setPage((p) => p + step)} />}
    </div>
  );
}

function ImageCard({ image, onDeleted, onDeleteFailed }: { image: ImageView; onDeleted: () => void; onDeleteFailed: (error: unknown) => void }) {
  const queryClient = useQueryClient();
  const captionId = useId();
  const [confirmOpen, setConfirmOpen] = useState(false);
  // Asked when the owner means to delete: the blogs showing it now.
  const usage = useQuery({
    queryKey: trpc.images.usage.queryKey({ imageId: image.id }),
    queryFn: () => api.images.usage.query({ imageId: image.id }),
    enabled: confirmOpen,
    staleTime: 0,
  });
  const remove = useMutation({
    mutationFn: () => api.images.delete.mutate({ imageId: image.id }),
    // Open, busy, until the list without the image is in: its card and this dialog then go, and the
    // focus with them to the page's heading (src/components/ui/dialog.tsx).
    onSuccess: async () => {
      onDeleted();
      await refreshImages(queryClient);
      setConfirmOpen(false);
    },
    onError: (error) => {
      setConfirmOpen(false);
      onDeleteFailed(error);
    },
  });

  return (
    <li aria-labelledby={captionId} data-testid={`image-${image.id}`} className="flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-xs">
      <ImageThumbnail image={image} className="aspect-[4/3] w-full border-b border-slate-200" />
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div>
          <p id={captionId} className="text-sm font-medium text-slate-900">
            {describeImage(image)}
          </p>
          <p className="text-xs text-slate-600">
            Uploaded <LocalTime iso={image.createdAt} />
          </p>
        </div>
        <div className="mt-auto flex flex-wrap gap-2">
          <CopyButton text={image.url} label="Copy URL" announce="The image's URL is copied to the clipboard" />
          <CopyButton text={imageMarkdown(image, "alt text")} label="Copy Markdown" announce="The image's Markdown is copied to the clipboard: replace “alt text” with what it shows" />
          <ConfirmDialog
            open={confirmOpen}
            onOpenChange={setConfirmOpen}
            trigger={<Button variant="danger">Delete</Button>}
            title="Delete this image?"
            description={<DeletionWarning usage={usage} />}
            confirmLabel="Delete image"
            busy={usage.isPending || remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </div>
      </div>
    </li>
  );
}

/** What deleting the image does: to the blogs showing it, when there are any. */
function DeletionWarning({ usage }: { usage: { data?: { id: string; title: string }[]; error: unknown } }) {
  if (usage.error) return <p>Couldn&apos;t check which blogs show it: {errorMessage(usage.error)}</p>;
  if (!usage.data) return <p>Checking which blogs show it…</p>;
  if (usage.data.length === 0) return <p>No blog shows it. The image and its smaller copies are deleted for good.</p>;
  const count = usage.data.length;
  return (
    <div className="space-y-2">
      <p className="rounded-md bg-amber-50 p-3 font-medium text-amber-900" role="note">
        {count === 1 ? "1 blog shows" : `${count} blogs show`} this image. Deleted, it gives way to its alt text where the Markdown shows
        it, and a cover using it is removed.
      </p>
      <ul className="list-disc space-y-1 pl-5">
        {usage.data.map((blog) => (
          <li key={blog.id}>
            <Link href={`/dashboard/blogs/${blog.id}`} className="text-indigo-700 underline">
              {blog.title}
            </Link>
          </li>
        ))}
      </ul>
      <p>This can&apos;t be undone.</p>
    </div>
  );
}
