/**
 * Runs a valibot schema and returns either the typed output or the first
 * issue's message. The first message is the one a person can act on; the
 * spec's forms show one message per field, so we never join them.
 */
import * as v from 'valibot';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string; field?: string };

export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown): Parsed<v.InferOutput<S>> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return { ok: true, value: result.output };
  const issue = result.issues[0];
  const field = issue.path?.map((p) => String(p.key)).join('.');
  return { ok: false, message: issue.message, ...(field ? { field } : {}) };
}

/** A positive whole-number id from a path or query string ("12" → 12). */
export const IdSchema = v.pipe(
  v.union([v.string(), v.number()]),
  v.transform((x) => (typeof x === 'string' ? x.trim() : x)),
  v.check((x) => /^\d{1,9}$/.test(String(x)) && Number(x) > 0, 'The id must be a positive whole number.'),
  v.transform((x) => Number(x)),
);
