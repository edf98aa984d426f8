"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { EmptyState, Skeleton } from "~/components/ui/card";
import { DIALOG_OVERLAY, WIDE_DIALOG_CONTENT } from "~/components/ui/dialog";
import { Pagination } from "~/components/ui/pagination";
import { cn } from "~/lib/cn";
import { api, errorMessage } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { ChooseImageButton, UploadStatus, useImageUpload } from "./image-upload";
import { ImageThumbnail } from "./image-thumbnail";
import { describeImage, imagesPageQuery } from "./images-client";
import { LoadError } from "./load-error";

const PAGE_SIZE = 12;

const COVER_PURPOSE = "it shows above the blog and beside it in your blog's index.";

/**
 * An image of the account in one role (a blog's cover, the publication's logo or icon): its
 * thumbnail, a dialog to choose one of the account's images or upload a new one, and removal.
 * `imageId` is the chosen image's id, or null for none; `noun` names the role in every label, and
 * `purpose` says in the dialog where the image shows.
 */
export function CoverImagePicker({
  imageId,
  onChange,
  noun = "cover",
  purpose = COVER_PURPOSE,
}: {
  imageId: string | null;
  onChange: (imageId: string | null) => void;
  noun?: string;
  purpose?: string;
}) {
  const [open, setOpen] = useState(false);
  const chooseId = useId();
  const chosen = useQuery({
    queryKey: trpc.images.get.queryKey({ imageId: imageId ?? undefined }),
    queryFn: async () => (await api.images.get.query({ imageId: imageId! })).data.image,
    enabled: imageId !== null,
  });
  const choose = (id: string) => {
    onChange(id);
    setOpen(false);
  };
  const upload = useImageUpload((image) => choose(image.id));

  return (
    <div className="space-y-3">
      {imageId === null ? (
        <p className="text-sm text-slate-600">No {noun} image.</p>
      ) : chosen.data ? (
        <div className="flex items-center gap-3" data-testid={`${noun}-image`}>
          <ImageThumbnail image={chosen.data} className="h-20 w-28 shrink-0 rounded border border-slate-200" />
          <p className="text-xs text-slate-600">{describeImage(chosen.data)}</p>
        </div>
      ) : chosen.error ? (
        <p role="alert" className="text-sm text-red-600">
          Couldn&apos;t show the {noun}: {errorMessage(chosen.error)}
        </p>
      ) : (
        <Skeleton className="h-20 w-28" />
      )}
      <div className="flex flex-wrap gap-2">
        <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
          <DialogPrimitive.Trigger asChild>
            <Button id={chooseId} variant="secondary" size="sm">
              {imageId === null ? `Choose ${noun}` : `Change ${noun}`}
            </Button>
          </DialogPrimitive.Trigger>
          <DialogPrimitive.Portal>
            <DialogPrimitive.Overlay className={DIALOG_OVERLAY} />
            <DialogPrimitive.Content className={WIDE_DIALOG_CONTENT}>
              <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">Choose {/^[aeiou]/.test(noun) ? "an" : "a"} {noun} image</DialogPrimitive.Title>
              <DialogPrimitive.Description className="mt-2 text-sm text-slate-600">
                One of your images, or a new one: {purpose}
              </DialogPrimitive.Description>
              <div className="mt-4 space-y-2">
                <ChooseImageButton upload={upload} label="Upload new image" />
                <UploadStatus upload={upload} />
              </div>
              <CoverChoices chosenId={imageId} onChoose={choose} noun={noun} />
              <div className="mt-6 flex justify-end">
                <DialogPrimitive.Close asChild>
                  <Button variant="secondary">Cancel</Button>
                </DialogPrimitive.Close>
              </div>
            </DialogPrimitive.Content>
          </DialogPrimitive.Portal>
        </DialogPrimitive.Root>
        {imageId !== null && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              onChange(null);
              // This button goes away: the focus goes to the one choosing a cover.
              document.getElementById(chooseId)?.focus();
            }}
          >
            Remove {noun}
          </Button>
        )}
      </div>
    </div>
  );
}

/** The account's images as a grid of choices, a page at a time; the current one marked. */
function CoverChoices({ chosenId, onChoose, noun }: { chosenId: string | null; onChoose: (imageId: string) => void; noun: string }) {
  const [page, setPage] = useState(1);
  const list = useQuery({ ...imagesPageQuery(page, PAGE_SIZE), placeholderData: keepPreviousData });
  const data = list.data;
  if (list.error) return <LoadError what="your images" error={list.error} onRetry={() => void list.refetch()} retrying={list.isFetching} />;
  if (!data) return <Skeleton className="mt-4 h-40 w-full" />;
  if (data.images.length === 0) return <EmptyState title="No images yet">Upload one to make it the {noun}.</EmptyState>;
  return (
    <div className="mt-4 space-y-3">
      <ul aria-label="Your images" className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4">
        {data.images.map((image) => {
          const current = image.id === chosenId;
          return (
            <li key={image.id}>
              <button
                type="button"
                onClick={() => onChoose(image.id)}
                aria-current={current || undefined}
                className={cn(
                  "block w-full overflow-hidden rounded-md border-2 text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
                  current ? "border-indigo-600" : "border-slate-200 hover:border-slate-400",
                )}
              >
                <ImageThumbnail image={image} className="aspect-[4/3] w-full" />
                <span className="block p-2 text-xs text-slate-700">
                  <span className="sr-only">Choose </span>
                  {describeImage(image)}
                  {current && (
                    <Badge tone="indigo" className="mt-1">
                      Current {noun}
                    </Badge>
                  )}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      <Pagination pagination={data.pagination} onStep={(step) => setPage((p) => p + step)} />
    </div>
  );
}
