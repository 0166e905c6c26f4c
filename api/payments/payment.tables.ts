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
}
