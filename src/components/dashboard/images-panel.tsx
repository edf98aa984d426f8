"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { EmptyState, Loading, Skeleton } from "~/components/ui/card";
import { CopyButton } from "~/components/ui/copy-button";
import { DIALOG_CONTENT, DIALOG_OVERLAY } from "~/components/ui/dialog";
import { LocalTime } from "~/components/ui/local-time";
import { Pagination } from "~/components/ui/pagination";
import { api, errorMessage, isImageInUse } from "~/trpc/react";
import { ChooseImageButton, UploadStatus, useImageUpload } from "./image-upload";
import { ImageThumbnail } from "./image-thumbnail";
import { describeImage, imageLibraryQuery, imageMarkdown, refreshImages, type LibraryImage } from "./images-client";
import { LoadError } from "./load-error";

const PAGE_SIZE = 12;

/**
 * The Images page: the account's images, newest first (or only those no blog uses), each with its
 * file name and the blogs using it; upload, copy into Markdown, delete one or several at once.
 */
export function ImagesPanel() {
  const [page, setPage] = useState(1);
  const [unused, setUnused] = useState(false);
  const [selected, setSelected] = useState<LibraryImage[]>([]);
  const [deleting, setDeleting] = useState<LibraryImage[] | null>(null);
  const list = useQuery({ ...imageLibraryQuery(page, PAGE_SIZE, unused), placeholderData: keepPreviousData });
  // The new image is the newest: on the first page.
  const upload = useImageUpload(() => setPage(1));
  const data = list.data;
  const isSelected = (image: LibraryImage) => selected.some((chosen) => chosen.id === image.id);
  const toggle = (image: LibraryImage) => setSelected((chosen) => (isSelected(image) ? chosen.filter((other) => other.id !== image.id) : [...chosen, image]));
  const filter = (next: boolean) => {
    setUnused(next);
    setPage(1);
    setSelected([]);
  };
  const countLabel = (total: number) => `${total} ${unused ? "unused " : ""}image${total === 1 ? "" : "s"}`;

  return (
    <div className="space-y-4">
      <div className="space-y-3">
        <div className="flex flex-wrap items-center gap-3">
          <ChooseImageButton upload={upload} label="Upload image" variant="primary" />
          <div role="group" aria-label="Show" className="inline-flex rounded-md border border-slate-300 bg-white p-0.5">
            {[
              { label: "All", value: false },
              { label: "Unused", value: true },
            ].map((option) => (
              <button
                key={option.label}
                type="button"
                aria-pressed={unused === option.value}
                onClick={() => filter(option.value)}
                className="h-8 rounded px-3 text-sm font-medium text-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 aria-pressed:bg-indigo-600 aria-pressed:text-white"
              >
                {option.label}
              </button>
            ))}
          </div>
          <span className="text-sm text-slate-600" aria-live="polite">
            {data ? countLabel(data.pagination.total) : ""}
          </span>
        </div>
        <UploadStatus upload={upload} />
        {selected.length > 0 && (
          <div className="flex flex-wrap items-center gap-3 rounded-md bg-slate-100 px-3 py-2" data-testid="selection-bar">
            <span className="text-sm font-medium text-slate-900" aria-live="polite">
              {selected.length} selected
            </span>
            <Button variant="danger" size="sm" onClick={() => setDeleting(selected)}>
              Delete selected
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setSelected([])}>
              Clear selection
            </Button>
          </div>
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
        unused ? (
          <EmptyState title="No unused images">Every image of yours is a blog&apos;s cover or in a blog&apos;s content.</EmptyState>
        ) : (
          <EmptyState title="No images yet">Upload one here, or paste or drop one into a blog&apos;s content as you write.</EmptyState>
        )
      ) : (
        <ul aria-label="Your images" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {data.images.map((image) => (
            <ImageCard key={image.id} image={image} selected={isSelected(image)} onToggle={() => toggle(image)} onDelete={() => setDeleting([image])} />
          ))}
        </ul>
      )}

      {data && <Pagination pagination={data.pagination} onStep={(step) => setPage((p) => p + step)} />}
      {deleting && (
        <DeleteImagesDialog
          // As the list now has them (the blogs using them change), those of other pages as chosen.
          images={deleting.map((image) => data?.images.find((shown) => shown.id === image.id) ?? image)}
          onClose={() => setDeleting(null)}
          onDeleted={(ids) => {
            setSelected((chosen) => chosen.filter((image) => !ids.includes(image.id)));
            // The page's images all gone: the page before, which still has some.
            if (data && data.images.every((image) => ids.includes(image.id)) && page > 1) setPage(page - 1);
          }}
        />
      )}
    </div>
  );
}

function ImageCard({ image, selected, onToggle, onDelete }: { image: LibraryImage; selected: boolean; onToggle: () => void; onDelete: () => void }) {
  const captionId = useId();
  return (
    <li
      aria-labelledby={captionId}
      data-testid={`image-${image.id}`}
      className={`flex flex-col overflow-hidden rounded-lg border bg-white shadow-xs ${selected ? "border-indigo-600 ring-2 ring-indigo-600" : "border-slate-200"}`}
    >
      <ImageThumbnail image={image} className="aspect-[4/3] w-full border-b border-slate-200" />
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex items-start gap-3">
          <input
            type="checkbox"
            className="mt-0.5 size-5 shrink-0 accent-indigo-600"
            checked={selected}
            onChange={onToggle}
            aria-label={`Select ${image.fileName}`}
          />
          <div className="min-w-0">
            <p id={captionId} className="text-sm font-medium break-all text-slate-900">
              {image.fileName}
            </p>
            <p className="text-xs text-slate-600">{describeImage(image)}</p>
            <p className="text-xs text-slate-600">
              Uploaded <LocalTime iso={image.createdAt} />
            </p>
          </div>
        </div>
        <ImageUses image={image} />
        <div className="mt-auto flex flex-wrap gap-2">
          <CopyButton text={image.url} label="Copy URL" announce="The image's URL is copied to the clipboard" />
          <CopyButton text={imageMarkdown(image, "alt text")} label="Copy Markdown" announce="The image's Markdown is copied to the clipboard: replace “alt text” with what it shows" />
          <Button variant="danger" onClick={onDelete}>
            Delete
          </Button>
        </div>
      </div>
    </li>
  );
}

/** Where the image is used: links to the blogs showing it, as cover or in their content. */
function ImageUses({ image }: { image: LibraryImage }) {
  if (image.usedBy.length === 0) return <p className="text-xs text-slate-600">Not used by any blog</p>;
  return (
    <div className="text-xs text-slate-700">
      <p className="font-medium">Used by</p>
      <BlogLinks blogs={image.usedBy} className="mt-1 space-y-1" />
    </div>
  );
}

/** Links to the blogs using an image, each saying how (cover, content or both). */
function BlogLinks({ blogs, className }: { blogs: LibraryImage["usedBy"]; className: string }) {
  return (
    <ul className={className}>
      {blogs.map((blog) => (
        <li key={blog.id}>
          <Link href={`/dashboard/blogs/${blog.id}`} className="break-words text-indigo-700 underline">
            {blog.title}
          </Link>{" "}
          <span className="text-slate-600">({[blog.cover && "cover", blog.content && "content"].filter(Boolean).join(" and ")})</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * Deleting images, one or several: those a blog uses are named with their blogs. Without the
 * owner's explicit choice to delete them anyway, the server refuses (IMAGE_IN_USE) and says which;
 * with it, covers are cleared and Markdown links break.
 */
function DeleteImagesDialog({ images, onClose, onDeleted }: { images: LibraryImage[]; onClose: () => void; onDeleted: (ids: string[]) => void }) {
  const queryClient = useQueryClient();
  const forceId = useId();
  const [force, setForce] = useState(false);
  const inUse = images.filter((image) => image.usedBy.length > 0);
  const ids = images.map((image) => image.id);
  const remove = useMutation({
    mutationFn: () => api.images.deleteMany.mutate({ imageIds: ids, force }),
    // Open, busy, until the list without the images is in: their cards and this dialog then go,
    // and the focus with them to the page's heading.
    onSuccess: async () => {
      onDeleted(ids);
      await refreshImages(queryClient);
      onClose();
    },
    // Refused for images in use: the list names the blogs using them as they are now.
    onError: () => refreshImages(queryClient),
  });
  const count = images.length === 1 ? "this image" : `these ${images.length} images`;

  return (
    <DialogPrimitive.Root open onOpenChange={(open) => !open && !remove.isPending && onClose()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={DIALOG_OVERLAY} />
        <DialogPrimitive.Content
          className={`${DIALOG_CONTENT} max-h-[calc(100dvh-2rem)] overflow-y-auto`}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            document.querySelector<HTMLElement>("main h1")?.focus();
          }}
        >
          <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">{`Delete ${count}?`}</DialogPrimitive.Title>
          <DialogPrimitive.Description className="mt-2 text-sm text-slate-600">
            {inUse.length === 0
              ? `No blog uses ${count}. ${images.length === 1 ? "It and its smaller copies are" : "They and their smaller copies are"} deleted for good.`
              : `${inUse.length === 1 ? "1 image is" : `${inUse.length} images are`} used by blogs. This can't be undone.`}
          </DialogPrimitive.Description>
          {inUse.length > 0 && (
            <div className="mt-3 space-y-3 text-sm text-slate-700">
              <ul className="space-y-2">
                {inUse.map((image) => (
                  <li key={image.id}>
                    <span className="font-medium break-all text-slate-900">{image.fileName}</span> is used by
                    <BlogLinks blogs={image.usedBy} className="mt-1 list-disc space-y-1 pl-5" />
                  </li>
                ))}
              </ul>
              <label htmlFor={forceId} className="flex items-start gap-2 rounded-md bg-amber-50 p-3 text-amber-900">
                <input id={forceId} type="checkbox" className="mt-0.5 size-4 shrink-0 accent-red-600" checked={force} onChange={(event) => setForce(event.target.checked)} />
                <span>
                  Delete the images in use too. Covers using them are removed, and links to them in the blogs&apos; content break: readers see
                  the alt text instead.
                </span>
              </label>
            </div>
          )}
          {remove.error && (
            <p role="alert" className="mt-3 text-sm break-words text-red-700">
              {isImageInUse(remove.error)
                ? "Nothing was deleted: images used by blogs are kept unless you choose to delete them too."
                : errorMessage(remove.error)}
            </p>
          )}
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <DialogPrimitive.Close asChild>
              <Button variant="secondary" disabled={remove.isPending}>
                Cancel
              </Button>
            </DialogPrimitive.Close>
            <Button variant="danger" onClick={() => remove.mutate()} loading={remove.isPending}>
              {images.length === 1 ? "Delete image" : `Delete ${images.length} images`}
            </Button>
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
