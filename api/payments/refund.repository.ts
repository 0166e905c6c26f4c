/** SQL for refunds. Rows stay here; callers get plain objects. */
import type { Kysely, Transaction } from 'kysely';
import type { RefundKind, RefundStatus } from '../../domain/refunds.js';
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

/**
 * The refund row under its key, made if absent: the key is unique, so two processes asking at
 * once make one row, and both go on to ask the provider with the same key (which answers one refund).
 */
export async function claimRefund(
  db: Db,
  r: {
    paymentRowId: number;
    orderId: number | null;
    kind: RefundKind;
    key: string;
    amountPaise: number;
    reason: string;
    by: string;
    now: number;
  },
): Promise<StoredRefund> {
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
