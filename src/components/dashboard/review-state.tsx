"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { api, errorMessage } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";

/**
 * A draft "In review" (docs/authors.md, Review): one of its authors asked the editors to publish it.
 * The marks come from blogs.review.list, the publication's drafts in review, for the list and the
 * editor alike; publishing or scheduling the post clears its mark.
 */
export function useDraftsInReview() {
  return useQuery({
    queryKey: trpc.blogs.review.list.queryKey(),
    queryFn: async () => new Set((await api.blogs.review.list.query()).map((mark) => mark.blogId)),
    staleTime: 30_000,
  });
}

export function InReviewBadge() {
  return (
    <Badge tone="indigo" className="whitespace-nowrap">
      In review
    </Badge>
  );
}

/**
 * "Submit for review" on a draft the member is an author of and that is not in review yet: the
 * publication's editors, administrators and owner are emailed. Unsaved edits are saved first.
 */
export function SubmitForReview({ blogId, beforeSubmit, onError }: { blogId: string; beforeSubmit: () => Promise<boolean>; onError: (message: string) => void }) {
  const queryClient = useQueryClient();
  const submit = useMutation({
    mutationFn: async () => {
      if (!(await beforeSubmit())) return false;
      await api.blogs.review.submit.mutate({ blogId });
      return true;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.blogs.review.list.queryKey() }),
    onError: (error) => onError(errorMessage(error)),
  });
  return (
    <Button variant="secondary" loading={submit.isPending} onClick={() => submit.mutate()}>
      Submit for review
    </Button>
  );
}
