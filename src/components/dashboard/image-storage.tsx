"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useId } from "react";
import { Card, CardTitle, Skeleton } from "~/components/ui/card";
import { cn } from "~/lib/cn";
import { formatBytes } from "~/shared/images";
import { IMAGE_STORAGE_QUERY } from "./images-client";
import { LoadError } from "./load-error";

/** From this share of the quota on, the card warns. */
const STORAGE_WARNING_SHARE = 0.8;

/** The Usage page's storage: what the account's images take, every file counted, against the plan's quota. */
export function ImageStorage() {
  const titleId = useId();
  const storage = useQuery({ ...IMAGE_STORAGE_QUERY, staleTime: 0 });
  const share = storage.data ? storage.data.used / storage.data.quota : 0;
  return (
    <Card className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <CardTitle id={titleId}>Image storage</CardTitle>
        <Link href="/dashboard/images" className="text-sm font-medium text-indigo-700 underline">
          Manage images
        </Link>
      </div>
      {storage.error ? (
        <LoadError what="your image storage" error={storage.error} onRetry={() => void storage.refetch()} retrying={storage.isFetching} />
      ) : !storage.data ? (
        <Skeleton className="h-14 w-full" />
      ) : (
        <div data-testid="image-storage" className="space-y-2">
          <p className="text-2xl font-semibold text-slate-900 tabular-nums">
            {formatBytes(storage.data.used)} of {formatBytes(storage.data.quota)}
          </p>
          <meter
            aria-labelledby={titleId}
            min={0}
            max={storage.data.quota}
            value={storage.data.used}
            // Chromium paints its own gradients on the meter's parts unless their background images are removed.
            className={cn(
              "block h-2 w-full appearance-none overflow-hidden rounded-full bg-slate-100",
              "[&::-webkit-meter-bar]:h-2 [&::-webkit-meter-bar]:border-0 [&::-webkit-meter-bar]:bg-slate-100 [&::-webkit-meter-bar]:bg-none [&::-webkit-meter-optimum-value]:bg-none",
              share >= STORAGE_WARNING_SHARE
                ? "[&::-moz-meter-bar]:bg-amber-600 [&::-webkit-meter-optimum-value]:bg-amber-600"
                : "[&::-moz-meter-bar]:bg-indigo-600 [&::-webkit-meter-optimum-value]:bg-indigo-600",
            )}
          />
          <p className="text-sm text-slate-600">
            {share > 0 && share < 0.01 ? "Under 1%" : `${Math.round(share * 100)}%`} of your plan&apos;s storage, each image&apos;s smaller copies
            included.
            {share >= STORAGE_WARNING_SHARE && " Almost full: delete images you no longer use, or move to a larger plan."}
          </p>
        </div>
      )}
    </Card>
  );
}
