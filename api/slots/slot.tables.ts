/** Row types for delivery slots and closed dates. They never leave the repository. */
import type { Generated } from 'kysely';

export interface DeliverySlotsTable {
  id: Generated<number>;
  name: string;
  start_minute: number;
  end_minute: number;
  surcharge: number;
  cutoff_minute: number;
  capacity: number | null;
  /** The weekdays it runs as digits, Sunday 0 first: "0123456". */
  weekdays: string;
  position: number;
  is_default: number;
  retired_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface DeliveryClosuresTable {
  date: string;
  message: string;
  created_at: number;
}

export interface SlotTables {
  delivery_slots: DeliverySlotsTable;
  delivery_closures: DeliveryClosuresTable;
}
