/** Row types of order pushes (migrations 20261125_1900_push, 20261127_1200_push_limits, 20261128_1705_new_order_alerts). */
import type { Generated } from 'kysely';

export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  /** The session that subscribed: logging out there forgets the device. */
  session_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: number;
  /** When the device last handed this subscription to the shop: the oldest goes first past the limit. */
  subscribed_at: Generated<number>;
  /** Since when every try has failed (null: the last one worked); a day of it drops the device. */
  failing_since: number | null;
  /** 1: an admin turned on new-order notifications on this device (`../admin/README.md`). */
  new_orders: Generated<number>;
}

export interface PushQueueTable {
  id: Generated<number>;
  subscription_id: number;
  order_id: number;
  status: string;
  /** The notification as JSON (`OrderUpdatePush`), encrypted for the device only when sent. */
  payload: string;
  attempts: Generated<number>;
  /** When the row is next due (ms); a sender claims a row by moving this forward. */
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
}

export interface PushTables {
  push_subscriptions: PushSubscriptionsTable;
  push_queue: PushQueueTable;
}
