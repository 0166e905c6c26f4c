/** Row types of the database-backed rate limiter (`ratelimit.ts`). */
/** A fixed-window counter of the database-backed rate limiter. */
export interface RateLimitsTable {
  key: string;
  count: number;
  window_start: number;
  window_ms: number;
}

export interface RateLimitTables {
  rate_limits: RateLimitsTable;
}
