import "server-only";
/** The pagination object of list responses (README, The API). */
export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasNext: boolean;
  hasPrev: boolean;
}

export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 50;
/** The deepest page the dashboard asks for by number: every blog of the largest quota stays reachable. */
export const MAX_PAGE = 1_000_000;

/** totalPages is 0 when nothing matches; a page past the last is allowed and simply empty. */
export function paginate(page: number, limit: number, total: number): Pagination {
  const totalPages = Math.ceil(total / limit);
  return { page, limit, total, totalPages, hasNext: page < totalPages, hasPrev: page > 1 };
}

export function pageOffset(page: number, limit: number): number {
  return (page - 1) * limit;
}
