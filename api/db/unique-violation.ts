/**
 * A unique constraint said no. Exactly-once rests on these (the idempotency
 * key, a coupon redemption, a payment used twice, a category name added twice
 * at once), so both dialects' codes are recognised: PostgreSQL's SQLSTATE
 * 23505 and SQLite's extended result codes.
 */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
