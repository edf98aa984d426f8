import "server-only";
export interface RateLimitState {
  limit: number;
  /** Never negative. */
  remaining: number;
  /** Unix ms when the window resets. */
  reset: number;
  success: boolean;
}

export interface RateLimiter {
  /** Consumes one unit of `identifier`'s budget `limit` per fixed window (an hour unless given). */
  consume(identifier: string, limit: number, windowSeconds?: number): Promise<RateLimitState>;
  /** Current state without consuming; `success` tells whether the next consume() would pass. */
  peek(identifier: string, limit: number, windowSeconds?: number): Promise<RateLimitState>;
}
