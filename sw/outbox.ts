/**
 * The order outbox's sender, shared by the page and the service worker (see sw/README.md, "The
 * outbox"); the shopper's decisions are `outbox-shopper.ts`, and what each outcome does to a row
 * is decided, pure, in `outbox-decisions.ts`.
 *
 * - An order is stored with its idempotency key, in one transaction with
 *   emptying its cart lines, before anything is sent (`queueOrder`).
 * - `sendDue` sends what is due, one row at a time, holding the Web Lock
 *   `storefront-outbox`, so the tabs and the worker never send at once. A row
 *   found `sending` by the lock's holder was left by a sender that died
 *   mid-request (tab closed, worker killed): it is sent again with the same key.
 * - Every answer has one handling (`domain/outbox.ts`): sent, retried with the
 *   same key (forever, with back-off), or waiting for the shopper. Nothing is
 *   ever deleted before a definite answer, and a row waiting for the shopper
 *   never stops the rows behind it.
 */
import type { OrderRequestInput, PlacedOrder } from '../domain/orders.js';
import { type Answer, classifyAnswer, classifyPhotoAnswer } from '../domain/outbox.js';
import { isOwnedBy } from '../domain/ownership.js';
import type { SlotOffer } from '../domain/slots.js';
import { writeMirror } from './cart.js';
import { db as defaultDb, type ShopDatabase } from './db.js';
import type { SessionRow } from './db-rows.js';
import {
  attentionPatch,
  isDue,
  isTransportError,
  NETWORK_DOWN,
  type RowPatch,
  retryPatch,
  sentPatch,
  signInProblem,
} from './outbox-decisions.js';
import {
  OUTBOX_ROW_VERSION,
  type OutboxPhoto,
  type OutboxRow,
  type QueuedFigures,
  type QueuedLine,
  upgradeRow,
} from './outbox-row.js';
import { nextRequestAt, sendRequests } from './requests.js';
import { postWithKey } from './send.js';
import { loadSession } from './session-writes.js';

export const OUTBOX_LOCK = 'storefront-outbox';
/** Longer than the server takes to price and place an order, shorter than a shopper's patience. */
export const SEND_TIMEOUT_MS = 20_000;

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

export interface OutboxEnv {
  db: ShopDatabase;
  fetch: typeof fetch;
  /** The API base: `/api` on the shop's origin (absolute in tests). */
  base: string;
  now(): number;
  random(): number;
  /** Web Locks where the browser has them; the in-scope queue otherwise (one scope: tests, old browsers). */
  locks: LockManagerLike | null;
  timeoutMs: number;
  /** Told of each order the server placed during a pass (the worker shows a notification). */
  onPlaced?(row: OutboxRow): void | Promise<void>;
}

export function defaultEnv(overrides: Partial<OutboxEnv> = {}): OutboxEnv {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return {
    db: defaultDb,
    fetch: (...args) => globalThis.fetch(...args),
    base: '/api',
    now: () => Date.now(),
    random: () => Math.random(),
    locks: nav?.locks ?? null,
    timeoutMs: SEND_TIMEOUT_MS,
    ...overrides,
  };
}

let localQueue: Promise<unknown> = Promise.resolve();
function withLock<T>(env: OutboxEnv, run: () => Promise<T>): Promise<T> {
  if (env.locks) return env.locks.request(OUTBOX_LOCK, run);
  const next = localQueue.then(run, run);
  localQueue = next.catch(() => undefined);
  return next;
}

export interface NewOrder {
  key: string;
  userId: number;
  email: string;
  request: OrderRequestInput;
  figures: QueuedFigures;
  /** The delivery slot as the shopper chose it (null: Standard). */
  slot?: SlotOffer | null;
  /** The cart lines this order takes: removed in the same transaction that stores it. */
  cartKeys: readonly string[];
  /** Its photo cakes' photos, uploaded before the order is sent. */
  photos?: OutboxPhoto[];
  /** What each line chose (line i of the request), kept for showing the order while it waits. */
  lines?: QueuedLine[];
  /**
   * The order the server placed already (a payment whose page died before `handler`, placed by its
   * webhook): stored as sent, as a sent row looks after `place-order` answered.
   */
  placed?: PlacedOrder;
}

/**
 * Stores the order and empties its cart lines in one transaction: either the
 * order is in the outbox and out of the cart, or nothing changed. Only then is
 * anything sent, so a crash at any later moment loses nothing. A payment in
 * progress under the same key (`PaymentRow` in `outbox-row.ts`) ends in that same transaction:
 * its order is now the outbox's, and a phone that dies right after still knows it. So does one
 * under another key for any of the same lines (`endedAt`: the resume closes it on the server).
 */
export async function queueOrder(order: NewOrder, env: OutboxEnv = defaultEnv()): Promise<OutboxRow> {
  const now = env.now();
  const queued: OutboxRow = upgradeRow({
    v: OUTBOX_ROW_VERSION,
    key: order.key,
    userId: order.userId,
    email: order.email,
    state: 'queued',
    request: order.request,
    figures: order.figures,
    slot: order.slot ?? null,
    createdAt: now,
    attempts: 0,
    nextAttemptAt: now,
    updatedAt: now,
    ...(order.photos?.length ? { photos: order.photos } : {}),
    ...(order.lines ? { lines: order.lines } : {}),
  });
  const row = order.placed
    ? { ...queued, ...sentPatch(queued, { kind: 'sent', order: order.placed }) }
    : queued;
  const stored = await env.db.transaction('rw', env.db.outbox, env.db.cart, env.db.payments, async () => {
    // The server's order for a payment whose `handler` ran after all (another tab) is in the outbox
    // already: that row stays (its sender gets the same order). One waiting for the shopper is
    // marked sent: a queued Cash on Delivery order the rules refused, paid online from its row
    // (`requeuePaid`) by a page that died before it could queue it again. Any other order under a
    // key taken is refused, and nothing changes.
    let kept = order.placed ? await env.db.outbox.get(order.key) : undefined;
    if (!kept) await env.db.outbox.add(row);
    else if (order.placed && kept.state === 'attention') {
      const waiting = upgradeRow(kept);
      kept = await updateRow(env, waiting, sentPatch(waiting, { kind: 'sent', order: order.placed }));
    }
    await env.db.cart.bulkDelete([...order.cartKeys]);
    await env.db.payments.delete(order.key);
    // Another payment in progress for any of these lines is over: this order has them now. Marked
    // in the same transaction, so no screen offers to pay for them again, even for a moment.
    const taken = new Set(order.cartKeys);
    await env.db.payments
      .filter((p) => !p.endedAt && p.userId === order.userId && p.order.cartKeys.some((k) => taken.has(k)))
      .modify({ endedAt: now });
    return kept ? upgradeRow(kept) : row;
  });
  await writeMirror(env.db);
  return stored;
}

export interface PassResult {
  sent: OutboxRow[];
  retried: number;
  attention: number;
  /** When the next queued row is due (ms since epoch), or null when none waits for time. */
  nextWakeAt: number | null;
}

/** Writes a row with `patch`, in this version's format and stamped with the time. */
export async function updateRow(env: OutboxEnv, row: OutboxRow, patch: RowPatch): Promise<OutboxRow> {
  const next = { ...row, ...patch, v: OUTBOX_ROW_VERSION, updatedAt: env.now() };
  await env.db.outbox.put(next);
  return next;
}

async function post(env: OutboxEnv, row: OutboxRow, token: string): Promise<Answer> {
  return postWithKey(env, '/place-order', row.key, token, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(row.request),
  });
}

async function postPhoto(
  env: OutboxEnv,
  photo: Pick<OutboxPhoto, 'key' | 'blob'>,
  token: string,
): Promise<Answer> {
  const form = new FormData();
  form.append('photo', photo.blob ?? new Blob([]), 'photo');
  return postWithKey(env, '/cake-photos', photo.key, token, { body: form });
}

/** An order's photo cake photos and the request that carries their ids (`PhotoID` on line `item`). */
export interface OrderPhotos {
  request: OrderRequestInput;
  photos: OutboxPhoto[];
}

/** What an order does instead when one of its photos got no id: retry, wait for a sign-in, or for the shopper. */
export type PhotoStop = Exclude<ReturnType<typeof classifyPhotoAnswer>, { kind: 'uploaded' }>;

/**
 * Uploads the order's photos that have no id yet, each under its own key (made on the device when
 * the photo was chosen, so a retry after a lost answer gets the photo made the first time, never a
 * second one), and puts each answered id on its line. `kept` hears of every id before the next
 * upload starts, so an id answered once is never asked for again. Anything but an id for every
 * photo stops at that photo, with what the order does instead and the server's answer: the order
 * is not sent, nor paid for, without them.
 *
 * The sender runs it before it sends an order; the checkout before it asks for the provider order
 * of an online payment, so the payment covers an order that carries its photos.
 */
export async function uploadOrderPhotos(
  env: OutboxEnv,
  order: OrderPhotos,
  token: string,
  kept: (next: OrderPhotos) => Promise<void> = async () => undefined,
): Promise<OrderPhotos & { stopped: { outcome: PhotoStop; answer: Answer } | null }> {
  let current = order;
  for (const photo of order.photos) {
    if (photo.photoID) continue;
    const product = current.request.OrderItems[photo.item]?.ProductName || 'the cake';
    const answer = await postPhoto(env, photo, token);
    const outcome = classifyPhotoAnswer(answer, env.now(), product);
    if (outcome.kind !== 'uploaded') return { ...current, stopped: { outcome, answer } };
    const photoID = outcome.photoID;
    current = {
      photos: current.photos.map((p) => (p.key === photo.key ? { ...p, photoID } : p)),
      request: {
        ...current.request,
        OrderItems: current.request.OrderItems.map((item, i) =>
          i === photo.item ? { ...item, PhotoID: photoID } : item,
        ),
      },
    };
    await kept(current);
  }
  return { ...current, stopped: null };
}

/** A row's photos uploaded as above, each id written into the row (and onto its line) as it is answered. */
async function uploadRowPhotos(
  env: OutboxEnv,
  row: OutboxRow,
  token: string,
): Promise<{ row: OutboxRow; outcome: PhotoStop | null }> {
  let current = row;
  const done = await uploadOrderPhotos(
    env,
    { request: row.request, photos: row.photos ?? [] },
    token,
    async (next) => {
      current = await updateRow(env, current, next);
    },
  );
  return { row: current, outcome: done.stopped?.outcome ?? null };
}

/** Rows a 401 (or a missing session) stopped continue once their account has another live token. */
async function resumeSignedIn(env: OutboxEnv, session: SessionRow | null): Promise<void> {
  if (!session) return;
  const waiting = await env.db.outbox.where('state').equals('attention').toArray();
  for (const raw of waiting) {
    const row = upgradeRow(raw);
    if (row.problem?.kind !== 'signin' || !isOwnedBy(row, session.userId)) continue;
    if (row.refusedToken === session.token) continue;
    await updateRow(env, row, {
      state: 'queued',
      problem: null,
      refusedToken: null,
      attempts: 0,
      nextAttemptAt: env.now(),
    });
  }
}

/**
 * One pass: sends every due row, oldest first, one at a time under the lock.
 * `force` sends queued rows whatever their back-off says (the network just came
 * back); `only` limits the pass to one order (the checkout waiting for it).
 * A network failure defers the rest of the pass with their own back-off (the
 * network is down for them too); a success proves it up again, so rows that
 * waited for the network go now.
 */
export function sendDue(
  env: OutboxEnv = defaultEnv(),
  options: { force?: boolean; only?: string } = {},
): Promise<PassResult> {
  return withLock(env, async () => {
    const result: PassResult = { sent: [], retried: 0, attention: 0, nextWakeAt: null };
    const session = await loadSession(env.db, env.now());
    await resumeSignedIn(env, session);
    const candidates = (await env.db.outbox.where('state').anyOf('queued', 'sending').toArray())
      .map(upgradeRow)
      .filter((r) => !options.only || r.key === options.only)
      .sort((a, b) => a.createdAt - b.createdAt || (a.key < b.key ? -1 : 1));
    let networkUp = false;
    /** When the network failed in this pass: the untried rows wait until then too. */
    let networkDownUntil: number | null = null;
    const due = (candidate: OutboxRow, now: number) =>
      isDue(candidate, now, { force: Boolean(options.force), networkUp });
    for (const [index, candidate] of candidates.entries()) {
      const now = env.now();
      if (networkDownUntil !== null) {
        // The network is down for the rest too. Not tried, so not a failure of their own: they wait for
        // the same moment with their back-off unchanged, written in one transaction (hundreds of orders
        // may wait, and one write each made every pass on a dead network take seconds).
        await deferUntried(
          env,
          candidates.slice(index).filter((c) => due(c, now)),
          networkDownUntil,
        );
        break;
      }
      if (!due(candidate, now)) continue;
      // Read again: another context may have changed it since the query (a shopper's edit, an old tab).
      const stored = await env.db.outbox.get(candidate.key);
      if (!stored || (stored.state !== 'queued' && stored.state !== 'sending')) continue;
      let row = upgradeRow(stored);
      // The network just came back (a forced pass): what the network refused before starts its back-off
      // again, so a phone that flapped all afternoon retries in seconds, not in five minutes.
      if (options.force && isTransportError(row.lastError)) row = { ...row, attempts: 0 };
      if (!session || !isOwnedBy(row, session.userId)) {
        await updateRow(env, row, { state: 'attention', problem: signInProblem(), refusedToken: null });
        result.attention += 1;
        continue;
      }
      // Shown while the shopper waits. Once the pass has proven the network up it drains the queue, and a
      // write per row more made each order wait on the live queries of every open page (the state is not
      // needed for safety: any row not yet answered is sent again with its key).
      if (!networkUp) row = await updateRow(env, row, { state: 'sending' });
      const uploads = await uploadRowPhotos(env, row, session.token);
      row = uploads.row;
      const outcome = uploads.outcome ?? classifyAnswer(await post(env, row, session.token), env.now());
      if (outcome.kind === 'sent') {
        networkUp = true;
        const placed = await updateRow(env, row, sentPatch(row, outcome));
        result.sent.push(placed);
        // Its account logged out while the answer was on its way: a sent order is personal data that
        // leaves the phone at logout (sw/account-data.ts), and the next person is told nothing of it.
        if (!isOwnedBy(placed, (await loadSession(env.db, env.now()))?.userId)) {
          await env.db.outbox.delete(placed.key);
          continue;
        }
        await env.onPlaced?.(placed);
      } else if (outcome.kind === 'retry') {
        const retry = retryPatch(row, outcome, env.now(), () => env.random());
        await updateRow(env, row, retry);
        result.retried += 1;
        if (outcome.transport) networkDownUntil = retry.nextAttemptAt;
        else networkUp = true;
      } else {
        networkUp = true;
        const problem = outcome.problem;
        if (problem.kind === 'defect') {
          // The same key with another body: the app built two different orders under one key. Never resent as it is.
          console.error('outbox: the server refused an order key reused with another body', row.key, problem);
        }
        await updateRow(env, row, attentionPatch(problem, session.token));
        result.attention += 1;
      }
    }
    // Then what shoppers asked about placed orders (the request queue), unless the network just
    // failed or the pass was for one order only.
    if (!options.only && networkDownUntil === null)
      await sendRequests(env, session, { force: options.force });
    result.nextWakeAt = await nextWakeAt(env);
    return result;
  });
}

async function deferUntried(env: OutboxEnv, rows: readonly OutboxRow[], until: number): Promise<void> {
  if (!rows.length) return;
  const now = env.now();
  await env.db.outbox
    .where('key')
    .anyOf(rows.map((r) => r.key))
    .modify((r) => {
      if (r.state !== 'queued' && r.state !== 'sending') return;
      r.state = 'queued';
      r.nextAttemptAt = Math.max(r.nextAttemptAt ?? 0, until);
      r.lastError = r.lastError ?? NETWORK_DOWN;
      r.updatedAt = now;
    });
}

/** When the earliest queued row (an order or a request) is due, or null when none is queued. */
export async function nextWakeAt(env: OutboxEnv = defaultEnv()): Promise<number | null> {
  const rows = await env.db.outbox.where('state').anyOf('queued', 'sending').toArray();
  const request = await nextRequestAt(env.db);
  const times = [...rows.map((r) => r.nextAttemptAt ?? 0), ...(request === null ? [] : [request])];
  return times.length ? Math.min(...times) : null;
}

/** Sends one order now (the checkout waits for it), behind whatever pass holds the lock. */
export async function sendNow(key: string, env: OutboxEnv = defaultEnv()): Promise<OutboxRow | undefined> {
  await sendDue(env, { only: key, force: true });
  const row = await env.db.outbox.get(key);
  return row ? upgradeRow(row) : undefined;
}
