/** SQL for refunds. Rows stay here; callers get plain objects. */
import { type Kysely, sql, type Transaction } from 'kysely';
import { fromPaise } from '../../domain/money.js';
import type { Refund, RefundKind, RefundStatus, ShopperRefund } from '../../domain/refunds.js';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface StoredRefund {
  id: number;
  paymentRowId: number;
  orderId: number | null;
  kind: RefundKind;
  key: string;
  amountPaise: number;
  reason: string;
  status: RefundStatus;
  providerRefundId: string | null;
  failureReason: string | null;
  createdBy: string;
  createdAt: number;
  processedAt: number | null;
  notifiedAt: number | null;
}

const columns = [
  'id',
  'payment_row_id',
  'order_id',
  'kind',
  'idempotency_key',
  'amount_paise',
  'reason',
  'status',
  'provider_refund_id',
  'failure_reason',
  'created_by',
  'created_at',
  'processed_at',
  'notified_at',
] as const;

const num = (x: unknown) => Number(x);
const numOrNull = (x: unknown) => (x === null || x === undefined ? null : Number(x));

function toRefund(r: {
  id: number;
  payment_row_id: number;
  order_id: number | null;
  kind: string;
  idempotency_key: string;
  amount_paise: number;
  reason: string;
  status: string;
  provider_refund_id: string | null;
  failure_reason: string | null;
  created_by: string;
  created_at: number;
  processed_at: number | null;
  notified_at: number | null;
}): StoredRefund {
  return {
    id: num(r.id),
    paymentRowId: num(r.payment_row_id),
    orderId: numOrNull(r.order_id),
    kind: r.kind as RefundKind,
    key: r.idempotency_key,
    amountPaise: num(r.amount_paise),
    reason: r.reason,
    status: r.status as RefundStatus,
    providerRefundId: r.provider_refund_id,
    failureReason: r.failure_reason,
    createdBy: r.created_by,
    createdAt: num(r.created_at),
    processedAt: numOrNull(r.processed_at),
    notifiedAt: numOrNull(r.notified_at),
  };
}

export async function findRefundByKey(db: Db, key: string): Promise<StoredRefund | null> {
  const row = await db
    .selectFrom('refunds')
    .select(columns)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return row ? toRefund(row) : null;
}

export async function findRefundByProviderId(db: Db, providerRefundId: string): Promise<StoredRefund | null> {
  const row = await db
    .selectFrom('refunds')
    .select(columns)
    .where('provider_refund_id', '=', providerRefundId)
    .executeTakeFirst();
  return row ? toRefund(row) : null;
}

/** A payment's refunds, oldest first. */
export async function refundsOfPayment(db: Db, paymentRowId: number): Promise<StoredRefund[]> {
  const rows = await db
    .selectFrom('refunds')
    .select(columns)
    .where('payment_row_id', '=', paymentRowId)
    .orderBy('id')
    .execute();
  return rows.map(toRefund);
}

/** A refund as it is first kept, before the provider is asked. */
export interface NewRefund {
  paymentRowId: number;
  /** The order it refunds, or null for a payment that never became one (unplaceable, late). */
  orderId: number | null;
  kind: RefundKind;
  /**
   * The provider's `X-Refund-Idempotency` key (at least 10 characters), and this refund's row's:
   * the same key is the same refund, whoever asks and however often.
   */
  key: string;
  amountPaise: number;
  reason: string;
  /** The admin's email, or "shop". */
  by: string;
}

/**
 * The refund row under its key, made if absent: the key is unique, so two processes asking at
 * once make one row, and both go on to ask the provider with the same key (which answers one refund).
 */
export async function claimRefund(db: Db, r: NewRefund & { now: number }): Promise<StoredRefund> {
  await db
    .insertInto('refunds')
    .values({
      payment_row_id: r.paymentRowId,
      order_id: r.orderId,
      kind: r.kind,
      idempotency_key: r.key,
      amount_paise: r.amountPaise,
      reason: r.reason,
      status: 'pending',
      provider_refund_id: null,
      failure_reason: null,
      created_by: r.by,
      created_at: r.now,
      updated_at: r.now,
      processed_at: null,
      notified_at: null,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .execute();
  const row = await findRefundByKey(db, r.key);
  if (!row) throw new Error(`refund ${r.key} vanished after its insert`);
  return row;
}

/**
 * The provider's word on a refund: its id, and a state that only moves forward (pending to
 * processed or failed; a processed refund never becomes failed). Returns whether it moved.
 */
export async function recordProviderRefund(
  db: Db,
  id: number,
  p: { providerRefundId: string; status: RefundStatus; failureReason: string | null; now: number },
): Promise<boolean> {
  await db
    .updateTable('refunds')
    .set({ provider_refund_id: p.providerRefundId, updated_at: p.now })
    .where('id', '=', id)
    .where('provider_refund_id', 'is', null)
    .execute();
  if (p.status === 'pending') return false;
  const res = await db
    .updateTable('refunds')
    .set({
      status: p.status,
      failure_reason: p.status === 'failed' ? p.failureReason : null,
      processed_at: p.status === 'processed' ? p.now : null,
      updated_at: p.now,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** A refund the provider refused outright (no refund was made): failed, with the reason for the admin. */
export async function markRefundRefused(db: Db, id: number, reason: string, now: number): Promise<void> {
  await db
    .updateTable('refunds')
    .set({ status: 'failed', failure_reason: reason, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('provider_refund_id', 'is', null)
    .execute();
}

/** An order's online payment that took money (authorized or captured), as a refund needs it. */
export interface RefundablePayment {
  id: number;
  provider: string;
  providerOrderId: string;
  paymentId: string | null;
  status: string;
  amountPaise: number;
  userId: number;
  orderId: number | null;
}

const TOOK_MONEY = ['authorized', 'captured'] as const;

function toRefundable(r: {
  id: number;
  provider: string;
  provider_order_id: string;
  payment_id: string | null;
  status: string;
  amount_paise: number;
  user_id: number;
  order_id: number | null;
}): RefundablePayment {
  return {
    id: num(r.id),
    provider: r.provider,
    providerOrderId: r.provider_order_id,
    paymentId: r.payment_id,
    status: r.status,
    amountPaise: num(r.amount_paise),
    userId: num(r.user_id),
    orderId: numOrNull(r.order_id),
  };
}

const paymentColumns = [
  'id',
  'provider',
  'provider_order_id',
  'payment_id',
  'status',
  'amount_paise',
  'user_id',
  'order_id',
] as const;

/** The payment that paid an order, when one took money; null for Cash on Delivery or an unpaid one. */
export async function paymentOfOrder(db: Db, orderId: number): Promise<RefundablePayment | null> {
  const row = await db
    .selectFrom('payments')
    .select(paymentColumns)
    .where('order_id', '=', orderId)
    .where('status', 'in', [...TOOK_MONEY])
    .where('payment_id', 'is not', null)
    .orderBy('id')
    .executeTakeFirst();
  return row ? toRefundable(row) : null;
}

export async function paymentRow(db: Db, id: number): Promise<RefundablePayment | null> {
  const row = await db.selectFrom('payments').select(paymentColumns).where('id', '=', id).executeTakeFirst();
  return row ? toRefundable(row) : null;
}

/**
 * Takes the payment's row lock until the transaction ends: an update that changes nothing still
 * locks the row on PostgreSQL (SQLite has one writer anyway), so two refunds of one payment count
 * what is left one after the other, never both from the same figure.
 */
export async function holdPayment(trx: Transaction<Database>, paymentRowId: number): Promise<void> {
  await trx
    .updateTable('payments')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', paymentRowId)
    .execute();
}

/** Refunds of these orders, oldest first, grouped by order. */
export async function refundsOfOrders(
  db: Db,
  orderIds: readonly number[],
): Promise<Map<number, StoredRefund[]>> {
  const byOrder = new Map<number, StoredRefund[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db
    .selectFrom('refunds')
    .select(columns)
    .where('order_id', 'in', [...new Set(orderIds)])
    .orderBy('id')
    .execute();
  for (const r of rows.map(toRefund)) {
    if (r.orderId === null) continue;
    const list = byOrder.get(r.orderId) ?? [];
    list.push(r);
    byOrder.set(r.orderId, list);
  }
  return byOrder;
}

/**
 * A refund the provider reports that this shop has not yet matched to its id (the answer to the
 * ask was lost): the oldest of the payment's refunds of that amount still without a provider id.
 */
export async function findUnmatchedRefund(
  db: Db,
  paymentId: string,
  amountPaise: number,
): Promise<StoredRefund | null> {
  const row = await db
    .selectFrom('refunds')
    .innerJoin('payments', 'payments.id', 'refunds.payment_row_id')
    .select(columns.map((c) => `refunds.${c}` as const))
    .where('payments.payment_id', '=', paymentId)
    .where('refunds.amount_paise', '=', amountPaise)
    .where('refunds.provider_refund_id', 'is', null)
    .orderBy('refunds.id')
    .executeTakeFirst();
  return row ? toRefund(row) : null;
}

/** Refunds still waiting for the provider's first answer, asked at or before `before`: the retry's work. */
export async function unansweredRefunds(db: Db, before: number, limit: number): Promise<StoredRefund[]> {
  const rows = await db
    .selectFrom('refunds')
    .select(columns)
    .where('status', '=', 'pending')
    .where('provider_refund_id', 'is', null)
    .where('updated_at', '<=', before)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toRefund);
}

/** Marks a processed refund told to the shopper; true for the one caller that gets to tell them. */
export async function claimNotice(db: Db, id: number, now: number): Promise<boolean> {
  const res = await db
    .updateTable('refunds')
    .set({ notified_at: now })
    .where('id', '=', id)
    .where('status', '=', 'processed')
    .where('notified_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The dashboard's money counts (`Dashboard.money`); amounts in paise. */
export async function moneyCounts(
  db: Db,
  since: number,
): Promise<{
  paymentsWithoutOrder: number;
  refundsPending: number;
  refundsFailed: number;
  refunds30: number;
  refunded30Paise: number;
}> {
  const [unplaced, refunds] = await Promise.all([
    // Money taken that is neither an order's nor on its way back, whatever the row's outcome says
    // (a payment captured on a provider order closed as unpaid, a refund that failed): the owner
    // must hear of every one.
    db
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', 'in', [...TOOK_MONEY])
      .where('order_id', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('refunds')
              .select('refunds.id')
              .whereRef('refunds.payment_row_id', '=', 'payments.id')
              .where('refunds.status', '!=', 'failed'),
          ),
        ),
      )
      .executeTakeFirst(),
    db
      .selectFrom('refunds')
      .select([
        sql<string>`sum(case when status = 'pending' then 1 else 0 end)`.as('pending'),
        sql<string>`sum(case when status = 'failed' then 1 else 0 end)`.as('failed'),
        sql<string>`sum(case when status <> 'failed' and created_at >= ${since} then 1 else 0 end)`.as(
          'recent',
        ),
        sql<string>`sum(case when status <> 'failed' and created_at >= ${since} then amount_paise else 0 end)`.as(
          'recent_paise',
        ),
      ])
      .executeTakeFirst(),
  ]);
  return {
    paymentsWithoutOrder: Number(unplaced?.n ?? 0),
    refundsPending: Number(refunds?.pending ?? 0),
    refundsFailed: Number(refunds?.failed ?? 0),
    refunds30: Number(refunds?.recent ?? 0),
    refunded30Paise: Number(refunds?.recent_paise ?? 0),
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A refund as the shopper sees it (whole rupees, times as ISO strings). */
export function shopperRefund(r: StoredRefund): ShopperRefund {
  return {
    amount: fromPaise(r.amountPaise),
    status: r.status,
    createdAt: iso(r.createdAt),
    processedAt: r.processedAt === null ? null : iso(r.processedAt),
  };
}

/** A refund as the admin's order page shows it. */
export function adminRefund(r: StoredRefund): Refund {
  return {
    refundID: r.id,
    kind: r.kind,
    amount: fromPaise(r.amountPaise),
    reason: r.reason,
    status: r.status,
    failureReason: r.failureReason,
    providerRefundID: r.providerRefundId,
    by: r.createdBy,
    createdAt: iso(r.createdAt),
    processedAt: r.processedAt === null ? null : iso(r.processedAt),
  };
}
