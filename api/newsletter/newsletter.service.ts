/** The mailing list's rules: joining (double opt-in), confirming and leaving; the mails are the routes'. */
import type { Kysely } from 'kysely';
import { newsletterMessages } from '../../domain/newsletter.js';
import type { Database } from '../db/schema.js';
import { HttpError, notFound } from '../http/errors.js';
import { hashToken, newConfirmToken, unsubscribeId } from './newsletter.mails.js';
import {
  confirmSubscription,
  prunePending,
  removeSubscription,
  requestSubscription,
} from './newsletter.repository.js';

/**
 * Asks to join: a new or waiting address gets a new confirmation token (a waiting one's older
 * token stops working); an address on the list stays as it is, with no token.
 */
export async function requestToJoin(db: Kysely<Database>, email: string, now: number) {
  await prunePending(db, now);
  const { token, hash } = newConfirmToken();
  const row = await requestSubscription(db, email, hash, now);
  return { id: row.id, token: row.status === 'pending' ? token : null };
}

/** Confirms by the mail's token: null when the address was on the list already; 404 unknown, 410 expired. */
export async function confirm(
  db: Kysely<Database>,
  token: string,
  now: number,
): Promise<{ id: number; email: string } | null> {
  const result = await confirmSubscription(db, hashToken(token), now);
  if (result.outcome === 'unknown') throw notFound(newsletterMessages.confirmUnknown);
  if (result.outcome === 'expired') throw new HttpError(410, newsletterMessages.confirmExpired);
  if (result.outcome === 'already') return null;
  return { id: result.id, email: result.email };
}

/** The subscription a signed unsubscribe token names, or a 404 for a token the list did not sign. */
export function subscriptionOf(key: string, token: string): number {
  const id = unsubscribeId(key, token);
  if (id === null) throw notFound(newsletterMessages.unsubscribeUnknown);
  return id;
}

/** Leaves the list by the token of any of its mails; answers whether the address was on it. */
export async function leave(db: Kysely<Database>, key: string, token: string): Promise<boolean> {
  return removeSubscription(db, subscriptionOf(key, token));
}
