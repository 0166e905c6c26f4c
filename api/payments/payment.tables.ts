/** Row types of online payments and the provider's events. They never leave the repository. */
import type { Generated } from 'kysely';

export interface PaymentsTable {
  id: Generated<number>;
  provider: string;
  provider_order_id: string;
  user_id: number;
  idempotency_key: string;
  amount_paise: number;
  currency: string;
  status: string;
  payment_id: string | null;
  order_id: number | null;
  created_at: number;
  updated_at: number;
  /** The priced order request (JSON) the provider order was made for: the server places it when paid. */
  request_json: string | null;
  /** When the provider says the payment was made (ms): the order's rules are judged as at then. */
  paid_at: number | null;
  /** When this server first saw the payment authorized (ms): not captured 10 minutes later, it captures it. */
  authorized_at: number | null;
  /** A provider order never paid, closed after a day (ms). */
  closed_at: number | null;
  /** What became of a paid provider order without an order: 'refunded' (with why), or 'closed'. */
  outcome: string | null;
  outcome_reason: string | null;
  /** `domain/payment-cart.ts` `cartKey` of the kept request, hashed: the cart it pays for. */
  cart_key: string | null;
  /** The coupon the kept request carries (upper-case), or null. */
  coupon_code: string | null;
  /** When the provider was last asked about it (ms): the reconciliation asks the least recently asked first. */
  asked_at: number | null;
}

export interface RefundsTable {
  id: Generated<number>;
  payment_row_id: number;
  order_id: number | null;
  /** domain/refunds.ts REFUND_KINDS. */
  kind: string;
  /** The provider's X-Refund-Idempotency key: one refund per key, whoever asks. */
  idempotency_key: string;
  amount_paise: number;
  reason: string;
  /** domain/refunds.ts REFUND_STATUSES. */
  status: string;
  provider_refund_id: string | null;
  failure_reason: string | null;
  /** The admin's email, or "shop". */
  created_by: string;
  created_at: number;
  updated_at: number;
  processed_at: number | null;
  /** When the shopper was told it is processed (push and mail), so they are told once. */
  notified_at: number | null;
}

export interface PaymentEventsTable {
  event_id: string;
  event: string;
  provider_order_id: string | null;
  received_at: number;
}

export interface PaymentTables {
  payments: PaymentsTable;
  payment_events: PaymentEventsTable;
  refunds: RefundsTable;
}
