/** SQL for provider orders and webhook events. Rows stay here; callers get plain objects. */
import type { Kysely, Transaction } from 'kysely';
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
}

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
] as const;

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
    orderId: row.order_id,
  };
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

/** An unused provider order this user already made for this key and amount: asking again reuses it. */
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
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? toPayment(row) : null;
}

export async function insertPayment(
  db: Db,
  p: {
    provider: string;
    providerOrderId: string;
    userId: number;
    key: string;
    amountPaise: number;
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
      created_at: p.now,
      updated_at: p.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Links a verified payment to its order; false when another order already took it. */
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
