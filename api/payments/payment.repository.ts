/** SQL for provider orders and webhook events. Rows stay here; callers get plain objects. */
import { createHash } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface StoredPayment {
  id: number;
  provider: string;
  providerOrderId: string;
  userId: number;
  idempotencyKey: string;
  amountPaise: number;
  status: PaymentStatus;
  paymentId: string | null;
  orderId: number | null;
  /** The kept order request (see `paid-orders.ts`), null for a provider order made before it was kept. */
  requestJson: string | null;
  paidAt: number | null;
  authorizedAt: number | null;
  closedAt: number | null;
  outcome: PaymentOutcome | null;
  outcomeReason: string | null;
  /** The cart it pays for (`cartHash` of its `cartKey`), null for one made before carts were kept. */
  cartKey: string | null;
  couponCode: string | null;
  askedAt: number | null;
  createdAt: number;
}

/** What became of a provider order that has no order: its money went back, or it was never paid. */
export type PaymentOutcome = 'refunded' | 'closed';

/** Webhooks arrive repeated and out of order: a payment's status only ever moves up this list. */
export const PAYMENT_STATUSES = ['created', 'failed', 'authorized', 'captured'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export function statusRank(status: string): number {
  return PAYMENT_STATUSES.indexOf(status as PaymentStatus);
}

const columns = [
  'id',
  'provider',
  'provider_order_id',
  'user_id',
  'idempotency_key',
  'amount_paise',
  'status',
  'payment_id',
  'order_id',
  'request_json',
  'paid_at',
  'authorized_at',
  'closed_at',
  'outcome',
  'outcome_reason',
  'cart_key',
  'coupon_code',
  'asked_at',
  'created_at',
] as const;

const numOrNull = (x: unknown) => (x === null || x === undefined ? null : Number(x));

function toPayment(row: {
  id: number;
  provider: string;
  provider_order_id: string;
  user_id: number;
  idempotency_key: string;
  amount_paise: number;
  status: string;
  payment_id: string | null;
  order_id: number | null;
  request_json: string | null;
  paid_at: number | null;
  authorized_at: number | null;
  closed_at: number | null;
  outcome: string | null;
  outcome_reason: string | null;
  cart_key: string | null;
  coupon_code: string | null;
  asked_at: number | null;
  created_at: number;
}): StoredPayment {
  return {
    id: row.id,
    provider: row.provider,
    providerOrderId: row.provider_order_id,
    userId: row.user_id,
    idempotencyKey: row.idempotency_key,
    amountPaise: Number(row.amount_paise),
    status: row.status as PaymentStatus,
    paymentId: row.payment_id,
    orderId: numOrNull(row.order_id),
    requestJson: row.request_json,
    paidAt: numOrNull(row.paid_at),
    authorizedAt: numOrNull(row.authorized_at),
    closedAt: numOrNull(row.closed_at),
    outcome: row.outcome as PaymentOutcome | null,
    outcomeReason: row.outcome_reason,
    cartKey: row.cart_key,
    couponCode: row.coupon_code,
    askedAt: numOrNull(row.asked_at),
    createdAt: Number(row.created_at),
  };
}

export async function findPaymentRow(db: Db, id: number): Promise<StoredPayment | null> {
  const row = await db.selectFrom('payments').select(columns).where('id', '=', id).executeTakeFirst();
  return row ? toPayment(row) : null;
}

/** Every provider order this user made under this key, newest first (a changed total makes a new one). */
export async function paymentsOfKey(db: Db, userId: number, key: string): Promise<StoredPayment[]> {
  const rows = await db
    .selectFrom('payments')
    .select(columns)
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toPayment);
}

export async function findPaymentByProviderOrder(
  db: Db,
  providerOrderId: string,
): Promise<StoredPayment | null> {
  const row = await db
    .selectFrom('payments')
    .select(columns)
    .where('provider_order_id', '=', providerOrderId)
    .executeTakeFirst();
  return row ? toPayment(row) : null;
}

/**
 * An unused provider order this user already made for this key and amount: asking again reuses it.
 * One refunded or closed is over: asking again makes a new one.
 */
export async function findOpenPayment(
  db: Db,
  userId: number,
  key: string,
  provider: string,
  amountPaise: number,
): Promise<StoredPayment | null> {
  const row = await db
    .selectFrom('payments')
    .select(columns)
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .where('provider', '=', provider)
    .where('amount_paise', '=', amountPaise)
    .where('order_id', 'is', null)
    .where('outcome', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? toPayment(row) : null;
}

/** What a provider order keeps of the request it was made for (see `paid-orders.ts`). */
export interface KeptColumns {
  requestJson: string;
  /** `domain/payment-cart.ts` `cartKey`: stored hashed (`cartHash`). */
  cartKey: string;
  couponCode: string | null;
}

/** A cart as the column holds it: a few hundred bytes of key become 64 hex characters. */
export const cartHash = (cartKey: string) => createHash('sha256').update(cartKey).digest('hex');

export async function insertPayment(
  db: Db,
  p: {
    provider: string;
    providerOrderId: string;
    userId: number;
    key: string;
    amountPaise: number;
    kept: KeptColumns;
    now: number;
  },
): Promise<number> {
  const row = await db
    .insertInto('payments')
    .values({
      provider: p.provider,
      provider_order_id: p.providerOrderId,
      user_id: p.userId,
      idempotency_key: p.key,
      amount_paise: p.amountPaise,
      currency: 'INR',
      status: 'created',
      payment_id: null,
      order_id: null,
      request_json: p.kept.requestJson,
      cart_key: cartHash(p.kept.cartKey),
      coupon_code: p.kept.couponCode,
      created_at: p.now,
      updated_at: p.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Nothing paid on it yet, nothing became of it: an open provider order. */
const UNPAID = ['created', 'failed'];

/**
 * A new ask replaces the request kept with an open provider order, while no payment has arrived
 * on it (once one has, the shopper paid for what was kept). `key` moves it to another
 * Idempotency-Key: the same cart asked for again under a new key pays this same provider order,
 * so nobody can pay for one cart twice. False when it is no longer open.
 */
export async function keepRequest(
  db: Db,
  id: number,
  kept: KeptColumns,
  now: number,
  key?: string,
): Promise<boolean> {
  const res = await db
    .updateTable('payments')
    .set({
      request_json: kept.requestJson,
      cart_key: cartHash(kept.cartKey),
      coupon_code: kept.couponCode,
      updated_at: now,
      ...(key ? { idempotency_key: key } : {}),
    })
    .where('id', '=', id)
    .where('order_id', 'is', null)
    .where('outcome', 'is', null)
    .where('status', 'in', UNPAID)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * The account's open provider orders made since `since` (nothing paid, no order, no outcome),
 * newest first: the ones a shopper may still pay.
 */
export async function openPaymentsOf(db: Db, userId: number, since: number): Promise<StoredPayment[]> {
  const rows = await db
    .selectFrom('payments')
    .select(columns)
    .where('user_id', '=', userId)
    .where('order_id', 'is', null)
    .where('outcome', 'is', null)
    .where('status', 'in', UNPAID)
    .where('created_at', '>=', since)
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toPayment);
}

/**
 * Closes open provider orders (nothing paid) of this account: those of `cartKey` but `exceptId`
 * (an order was placed for that cart another way), or those of `key` (the phone ended them). A
 * payment arriving on one later is refunded in full (`settleCapture`, a late one), with `reason`.
 */
export async function closeOpen(
  db: Db,
  p: {
    userId: number;
    cartKey?: string;
    key?: string;
    exceptId?: number | null;
    reason: string;
    now: number;
  },
): Promise<number> {
  if (p.cartKey === undefined && p.key === undefined) return 0;
  let q = db
    .updateTable('payments')
    .set({ outcome: 'closed', outcome_reason: p.reason, closed_at: p.now, updated_at: p.now })
    .where('user_id', '=', p.userId)
    .where('order_id', 'is', null)
    .where('outcome', 'is', null)
    .where('status', 'in', UNPAID);
  if (p.cartKey !== undefined) q = q.where('cart_key', '=', cartHash(p.cartKey));
  if (p.key !== undefined) q = q.where('idempotency_key', '=', p.key);
  if (p.exceptId != null) q = q.where('id', '!=', p.exceptId);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/**
 * Links a verified payment to its order; false when another order already took it, or its money
 * went back (refunded as unplaceable: the page's late proof then places nothing).
 */
export async function linkPaymentToOrder(
  db: Db,
  paymentRowId: number,
  orderId: number,
  paymentId: string,
  now: number,
): Promise<boolean> {
  const res = await db
    .updateTable('payments')
    .set({ order_id: orderId, payment_id: paymentId, updated_at: now })
    .where('id', '=', paymentRowId)
    .where('order_id', 'is', null)
    .where('outcome', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Moves a payment's status up, never down; returns whether it moved. */
export async function raisePaymentStatus(
  db: Db,
  paymentRowId: number,
  to: PaymentStatus,
  paymentId: string | null,
  now: number,
): Promise<boolean> {
  const lower = PAYMENT_STATUSES.slice(0, statusRank(to));
  if (lower.length === 0) return false;
  const res = await db
    .updateTable('payments')
    .set({ status: to, updated_at: now, ...(paymentId ? { payment_id: paymentId } : {}) })
    .where('id', '=', paymentRowId)
    .where('status', 'in', lower)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Whether an event id was handled before (a repeated delivery). */
export async function eventSeen(db: Db, eventId: string): Promise<boolean> {
  const row = await db
    .selectFrom('payment_events')
    .select('event_id')
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a webhook event id; false when it was seen before (a repeated delivery). */
export async function recordEvent(
  db: Db,
  e: { eventId: string; event: string; providerOrderId: string | null; now: number },
): Promise<boolean> {
  const row = await db
    .insertInto('payment_events')
    .values({ event_id: e.eventId, event: e.event, provider_order_id: e.providerOrderId, received_at: e.now })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** A captured payment marks its order paid, only from "placed" (never undoes a later status). */
export async function markOrderPaid(db: Db, orderId: number, now: number): Promise<void> {
  await db
    .updateTable('orders')
    .set({ status: 'paid', updated_at: now })
    .where('id', '=', orderId)
    .where('status', '=', 'placed')
    .execute();
}

/**
 * What the server learnt of a payment: when it first saw it authorized (the capture job's clock)
 * and when the provider says it was made. Only the first of each is kept.
 */
export async function notePaymentSeen(
  db: Db,
  id: number,
  seen: { authorizedAt?: number | null; paidAt?: number | null },
): Promise<void> {
  if (seen.authorizedAt) {
    await db
      .updateTable('payments')
      .set({ authorized_at: seen.authorizedAt })
      .where('id', '=', id)
      .where('authorized_at', 'is', null)
      .execute();
  }
  if (seen.paidAt) {
    await db
      .updateTable('payments')
      .set({ paid_at: seen.paidAt })
      .where('id', '=', id)
      .where('paid_at', 'is', null)
      .execute();
  }
}

/** Under the key's lock: the payment has no order and no outcome yet, so placing it is still to do. */
export async function paymentStillOpen(db: Db, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('payments')
    .select('id')
    .where('id', '=', id)
    .where('order_id', 'is', null)
    .where('outcome', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Marks a paid provider order's money as going back: only from `from` (no outcome yet, or
 * `closed` for a late payment) and with no order. True for the one caller that moved it, so the
 * shopper is told once, whichever process got there first.
 */
export async function markRefunded(
  db: Db,
  id: number,
  from: null | 'closed',
  reason: string,
  now: number,
): Promise<boolean> {
  let q = db
    .updateTable('payments')
    .set({ outcome: 'refunded', outcome_reason: reason, updated_at: now })
    .where('id', '=', id)
    .where('order_id', 'is', null);
  q = from === null ? q.where('outcome', 'is', null) : q.where('outcome', '=', from);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** A provider order never paid, a day on: closed, so a payment arriving later is refunded. */
export async function closeUnpaid(db: Db, id: number, now: number): Promise<boolean> {
  const res = await db
    .updateTable('payments')
    .set({ outcome: 'closed', closed_at: now, updated_at: now })
    .where('id', '=', id)
    .where('order_id', 'is', null)
    .where('outcome', 'is', null)
    .where('status', 'in', UNPAID)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The provider was asked about it now (the reconciliation, or a phone's poll): asked again a while later. */
export async function noteAsked(db: Db, id: number, now: number): Promise<void> {
  await db.updateTable('payments').set({ asked_at: now }).where('id', '=', id).execute();
}

/**
 * Provider orders with no order and no outcome, made before `madeBefore` and not asked about
 * since `askedBefore`: the ones whose webhook may have been missed. Those never asked come first,
 * the newest of them first, then the least recently asked: a flood of old rows never keeps a
 * shopper's new payment waiting (each row asked is marked, so it goes to the back).
 */
export async function openProviderOrders(
  db: Db,
  p: { provider: string; madeBefore: number; askedBefore: number; limit: number },
): Promise<StoredPayment[]> {
  const rows = await db
    .selectFrom('payments')
    .select(columns)
    .where('provider', '=', p.provider)
    .where('order_id', 'is', null)
    .where('outcome', 'is', null)
    .where('created_at', '<', p.madeBefore)
    .where((eb) => eb.or([eb('asked_at', 'is', null), eb('asked_at', '<', p.askedBefore)]))
    .orderBy(sql`coalesce(asked_at, 0)`)
    .orderBy('created_at', 'desc')
    .limit(p.limit)
    .execute();
  return rows.map(toPayment);
}

/** Payments this server saw authorized before `before` and not captured since. */
export async function uncapturedPayments(
  db: Db,
  p: { provider: string; before: number; limit: number },
): Promise<StoredPayment[]> {
  const rows = await db
    .selectFrom('payments')
    .select(columns)
    .where('provider', '=', p.provider)
    .where('status', '=', 'authorized')
    .where('payment_id', 'is not', null)
    // A row authorized before `authorized_at` was kept goes by its last change.
    .where((eb) =>
      eb.or([
        eb('authorized_at', '<=', p.before),
        eb.and([eb('authorized_at', 'is', null), eb('updated_at', '<=', p.before)]),
      ]),
    )
    .orderBy('id')
    .limit(p.limit)
    .execute();
  return rows.map(toPayment);
}

/**
 * Payments marked refunded whose refund never reached the provider (the provider was down, the
 * process stopped between the two): no refund of theirs has a provider id or was refused.
 */
export async function refundsOwed(db: Db, p: { provider: string; limit: number }): Promise<StoredPayment[]> {
  const rows = await db
    .selectFrom('payments')
    .select(columns)
    .where('provider', '=', p.provider)
    .where('outcome', '=', 'refunded')
    .where('payment_id', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('refunds')
            .select('refunds.id')
            .whereRef('refunds.payment_row_id', '=', 'payments.id')
            .where((eb) => eb.or([eb('provider_refund_id', 'is not', null), eb('status', '=', 'failed')])),
        ),
      ),
    )
    .orderBy('id')
    .limit(p.limit)
    .execute();
  return rows.map(toPayment);
}
