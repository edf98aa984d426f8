"use client";

import { Button } from "./button";

/**
 * Previous and Next through a paginated list (the API's pagination), when it has more than one
 * page. `onStep` gets -1 or 1: the caller moves from the page it asked for, which may be ahead of
 * the one still shown while the next loads.
 */
export function Pagination({
  pagination,
  onStep,
}: {
  pagination: { page: number; totalPages: number; hasPrev: boolean; hasNext: boolean };
  onStep: (step: -1 | 1) => void;
}) {
  if (pagination.totalPages <= 1) return null;
  return (
    <nav className="flex items-center justify-between gap-3" aria-label="Pages">
      <Button variant="secondary" size="sm" disabled={!pagination.hasPrev} onClick={() => onStep(-1)}>
        Previous
      </Button>
      <span className="text-sm text-slate-600">
        Page {pagination.page} of {pagination.totalPages}
      </span>
      <Button variant="secondary" size="sm" disabled={!pagination.hasNext} onClick={() => onStep(1)}>
        Next
      </Button>
    </nav>
  );
}
