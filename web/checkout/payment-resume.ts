/**
 * The phone finds out what became of a payment whose page died (Android reclaims the shop's page
 * while the shopper is in the UPI app). The checkout keeps each payment in progress in Dexie
 * (`PaymentRow`, `sw/outbox-row.ts`) before Checkout opens; when the shop opens again, and
 * whenever it comes back online or into view, this asks the server about each one
 * (`GET /payments/attempts/{key}`) and does what `domain/payment-resume.ts` says. Started by the
 * page's outbox sender, which `web/pwa/start.ts` loads only while the device has a payment in
 * progress or an order waiting, never with the first screen; what it shows is
 * `PaymentInProgress.tsx`, a chunk of its own loaded only when there is something to show.
 */
import { liveQuery } from 'dexie';
import { type PaymentOnPhone, paymentOnPhone, resumeBackoffMs } from '../../domain/payment-resume.js';
import { type PaymentAttempt, paymentsContract } from '../../domain/payments.contract.js';
import { db as defaultDb, type ShopDatabase } from '../../sw/db.js';
import { defaultEnv, type NewOrder, queueOrder } from '../../sw/outbox.js';
import type { PaymentFound, PaymentRow } from '../../sw/outbox-row.js';
import { currentSession, onSessionChange } from '../../sw/session.js';
import { ApiError, call } from '../api/client.js';

/**
 * Payments this page's own checkout (or its Pay again) is following: the resume leaves them to it.
 * A page that dies forgets them, and the next one finds them here.
 */
export const startedHere = new Set<string>();

/** The payment row for the order the checkout is about to pay (what the outbox row would be made of). */
export function paymentRowOf(
  order: NewOrder,
  providerOrder: PaymentRow['providerOrder'],
  now: number,
): PaymentRow {
  const { key, userId, email, photos, ...rest } = order;
  return {
    key,
    userId,
    email,
    providerOrder,
    // The photos were uploaded before the provider order: their ids are enough, the Blobs stay in the cart.
    order: { ...rest, ...(photos?.length ? { photos: photos.map(({ blob: _b, ...p }) => p) } : {}) },
    createdAt: now,
  };
}

/** What the server says of a key: the attempt, 'unknown' (404), or null when nothing was learned. */
export type Ask = (key: string) => Promise<PaymentAttempt | 'unknown' | null>;

export const askServer: Ask = async (key) => {
  try {
    return (await call(paymentsContract.attempt, { params: { key } })).data ?? null;
  } catch (err) {
    // A 404 is the server's definite "no payment of yours under this key"; anything else is not knowing.
    return err instanceof ApiError && err.status === 404 ? 'unknown' : null;
  }
};

export type Found = PaymentFound;

/**
 * Closes on the server the provider order of a payment whose lines were ordered another way
 * (`endedAt`): what became of it (`closed`, or `placed` / `paying` when it was paid after all),
 * 'unknown' for a 404, null when nothing was learned (offline, the server unreachable).
 */
export type Close = (key: string) => Promise<PaymentAttempt | 'unknown' | null>;

export const closeOnServer: Close = async (key) => {
  try {
    return (await call(paymentsContract.closeAttempt, { params: { key } })).data ?? null;
  } catch (err) {
    return err instanceof ApiError && err.status === 404 ? 'unknown' : null;
  }
};

/**
 * Does what the server's answer means for one row: a placed order goes into the outbox as sent,
 * its lines out of the cart and the row away, all in `queueOrder`'s one transaction; a refunded
 * or closed payment (or one the server does not know) loses its row, its lines staying in the cart.
 */
export async function settle(store: ShopDatabase, row: PaymentRow, on: PaymentOnPhone): Promise<void> {
  if (on.kind === 'placed') {
    await queueOrder(
      { ...row.order, key: row.key, userId: row.userId, email: row.email, placed: on.order },
      defaultEnv({ db: store }),
    );
  } else if (on.kind === 'refunded' || on.kind === 'gone') {
    await store.payments.delete(row.key);
  }
}

/**
 * One pass over the account's payments in progress, oldest first (those this page follows itself
 * left out): each is asked about (unless offline) and settled. What the shopper should see comes back.
 */
export async function resumePass(input: {
  store: ShopDatabase;
  ask: Ask;
  close?: Close;
  userId: number;
  offline: boolean;
}): Promise<Found[]> {
  const rows = (await input.store.payments.toArray())
    .filter((r) => r.userId === input.userId && !startedHere.has(r.key))
    .sort((a, b) => a.createdAt - b.createdAt);
  const found: Found[] = [];
  const close = input.close ?? closeOnServer;
  for (const row of rows) {
    if (row.endedAt) {
      // Its lines were ordered another way: its provider order is closed (a late payment on it is
      // refunded by the server), and it goes. Paid after all, it is settled as any paid one is.
      if (input.offline) continue;
      const on = paymentOnPhone(await close(row.key));
      if (on.kind === 'confirming') continue;
      await settle(input.store, row, on.kind === 'open' ? { kind: 'gone' } : on);
      if (on.kind === 'placed' || on.kind === 'refunded') found.push({ row, on });
      continue;
    }
    let on = paymentOnPhone(input.offline ? null : await input.ask(row.key));
    // Never paid, and its lines left the cart (another order took them): nothing is left to pay for.
    if (on.kind === 'open' && !(await input.store.cart.bulkGet([...row.order.cartKeys])).some(Boolean))
      on = { kind: 'gone' };
    await settle(input.store, row, on);
    if (on.kind !== 'gone') found.push({ row, on });
  }
  return found;
}

// What the notice shows, outside React (the pass runs before and apart from any screen).
let shown: Found[] = [];
const listeners = new Set<() => void>();

export function shownPayments(): Found[] {
  return shown;
}

export function subscribeShown(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function publish(next: Found[]): void {
  shown = next;
  for (const l of listeners) l();
  // Given what it needs rather than importing it: the notice is a chunk of its own, loaded only now.
  if (next.length)
    void import('./PaymentInProgress.js').then((m) =>
      m.mountPaymentNotice({ shownPayments, subscribeShown, forget, backToCart }),
    );
}

/**
 * A pass's findings replace what was shown of rows still in progress; a placed or refunded payment
 * stays on show until the shopper closes it (its row is gone, so no later pass finds it again).
 */
export function mergeFound(before: readonly Found[], pass: readonly Found[]): Found[] {
  const news = new Set(pass.map((f) => f.row.key));
  const kept = before.filter(
    (f) => (f.on.kind === 'placed' || f.on.kind === 'refunded') && !news.has(f.row.key),
  );
  return [...kept, ...pass];
}

/** The shopper closed a payment's notice (placed or refunded: its row is gone already). */
export function forget(key: string): void {
  publish(shown.filter((f) => f.row.key !== key));
}

/** Back to cart from a payment not made: it is no longer in progress, and its lines stay in the cart. */
export async function backToCart(key: string, store: ShopDatabase = defaultDb): Promise<void> {
  await store.payments.delete(key);
  forget(key);
}

/**
 * Watches the payments in progress: one whose lines an order took (`endedAt`) or that is gone
 * leaves the notice at once (it is never offered on the success page of the order that bought
 * its lines), and the resume closes it on the server.
 */
function watchRows(store: ShopDatabase): void {
  liveQuery(() => store.payments.toArray()).subscribe({
    next(rows) {
      const live = new Map(rows.map((r) => [r.key, r]));
      const still = (f: Found) =>
        f.on.kind === 'placed' ||
        f.on.kind === 'refunded' ||
        (live.has(f.row.key) && !live.get(f.row.key)?.endedAt);
      if (!shown.every(still)) publish(shown.filter(still));
      if (rows.some((r) => r.endedAt)) void kick();
    },
    error: (err) => console.error('watching the payments in progress failed', err),
  });
}

/** This page pays for it now (Pay again in the checkout): the resume passes leave it alone until `release`. */
export function follow(key: string): void {
  startedHere.add(key);
  publish(shown.filter((f) => f.row.key !== key));
}

export function release(key: string): void {
  startedHere.delete(key);
  void kick();
}

let started = false;
let running = false;
let again = false;
let timer: ReturnType<typeof setTimeout> | undefined;
/** Passes in a row that left a payment being confirmed or open: drives the back-off. */
let waits = 0;

/** Started with the page's outbox sender (`page-sender.ts`), itself loaded by `web/pwa/start.ts` while needed. */
export function startPaymentResume(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  window.addEventListener('online', () => {
    waits = 0;
    void kick();
  });
  window.addEventListener('offline', () => void kick());
  // Back from the UPI app into the same page: the payment may have landed meanwhile.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void kick();
  });
  onSessionChange(() => void kick());
  watchRows(defaultDb);
  void kick();
}

async function kick(): Promise<void> {
  if (running) {
    again = true;
    return;
  }
  running = true;
  clearTimeout(timer);
  try {
    const session = currentSession();
    const pass = session
      ? await resumePass({
          store: defaultDb,
          ask: askServer,
          userId: session.userId,
          offline: !navigator.onLine,
        })
      : [];
    // Only the signed-in account's payments are shown: the phone may be someone else's now.
    publish(
      session
        ? mergeFound(
            shown.filter((f) => f.row.userId === session.userId),
            pass,
          )
        : [],
    );
    // Asked again later while something is not settled; offline, the online event asks.
    if (navigator.onLine && pass.some((f) => f.on.kind === 'confirming' || f.on.kind === 'open'))
      timer = setTimeout(() => void kick(), resumeBackoffMs(waits++));
    else waits = 0;
  } catch (err) {
    console.error('payment resume failed', err);
    timer = setTimeout(() => void kick(), resumeBackoffMs(waits++));
  } finally {
    running = false;
    if (again) {
      again = false;
      void kick();
    }
  }
}
