"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { api, errorMessage } from "~/trpc/react";

export interface SwitcherPublication {
  id: string;
  name: string;
  handle: string;
}

/**
 * The publication the dashboard works in, for a person who belongs to more than one (docs/dashboard.md,
 * Members): choosing another makes it the session's (members.switchPublication) and reads the
 * dashboard again from its home, every page then that publication's.
 */
export function PublicationSwitcher({ publications, activeId }: { publications: SwitcherPublication[]; activeId: string }) {
  const [error, setError] = useState("");
  const leaveFor = useFreshDashboard();
  const switchTo = useMutation({
    mutationFn: (publicationId: string) => api.members.switchPublication.mutate({ publicationId }),
    onSuccess: () => leaveFor("/dashboard"),
    onError: (e) => setError(errorMessage(e)),
  });
  return (
    <span className="flex min-w-0 items-center gap-2 text-sm text-slate-700">
      <label htmlFor="publication-switcher" className="sr-only sm:not-sr-only">
        Publication
      </label>
      <select
        id="publication-switcher"
        value={switchTo.variables ?? activeId}
        disabled={switchTo.isPending}
        onChange={(event) => {
          setError("");
          switchTo.mutate(event.target.value);
        }}
        className="h-8 max-w-48 min-w-0 truncate rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {publications.map((publication) => (
          <option key={publication.id} value={publication.id}>
            {publication.name} (/{publication.handle})
          </option>
        ))}
      </select>
      {error && (
        <span role="alert" className="text-xs text-red-600">
          {error}
        </span>
      )}
    </span>
  );
}

/**
 * Goes to a dashboard page once the session works in another publication (or another role): the
 * cached answers were the old one's, so they go, and the server renders the layout again.
 */
export function useFreshDashboard() {
  const router = useRouter();
  const queryClient = useQueryClient();
  return (path: string) => {
    queryClient.clear();
    router.replace(path);
    router.refresh();
  };
}
