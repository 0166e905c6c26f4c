/** Row types for orders, their lines, idempotency keys and status history. They never leave the repositories. */
import type { Generated } from 'kysely';

export interface OrdersTable {
  id: Generated<number>;
  user_id: number;
  idempotency_key: string | null;
  status: string;
  delivery_date: string;
  customer_name: string;
  customer_email: string;
  customer_phone: string;
  customer_address: string;
  state: string;
  city: string;
  pincode: string;
  payment_method: string;
  subtotal: number;
  delivery_charge: number;
  discount: number;
  total: number;
  coupon_code: string | null;
  provider_order_id: string | null;
  payment_id: string | null;
  /** The delivery slot, copied as it was when the order was placed. */
  slot_id: number | null;
  slot_name: string | null;
  slot_start: number | null;
  slot_end: number | null;
  slot_charge: Generated<number>;
  /** Gifts: the recipient when it goes to someone else; the address fields are theirs. */
  recipient_name: string | null;
  recipient_phone: string | null;
  hide_price: Generated<number>;
  hide_sender: Generated<number>;
  card_occasion: string | null;
  card_message: string | null;
  created_at: number;
  updated_at: number;
}

export interface OrderItemsTable {
  id: Generated<number>;
  order_id: number;
  product_id: number;
  variation_id: number | null;
  product_name: string;
  variation_name: string | null;
  /** The option's value ("1 kg"); '' for a product with no size; NULL only where an old line's size could not be recovered. */
  variation_value: string | null;
  product_image: string;
  unit_price: number;
  quantity: number;
  line_total: number;
  position: number;
  /** The message on the cake and the cake photo's id. */
  cake_message: string | null;
  photo_id: string | null;
}

export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  request_hash: string;
  order_id: number | null;
  status_code: number;
  /** The JSON envelope answered the first time. */
  response: string;
  created_at: number;
}

/** One status change of an order (the admin's timeline); the first status is the order's own. */
export interface OrderStatusHistoryTable {
  id: Generated<number>;
  order_id: number;
  from_status: string;
  to_status: string;
  changed_by: number | null;
  changed_by_email: string;
  note: Generated<string>;
  created_at: number;
}

export interface OrderTables {
  orders: OrdersTable;
  order_items: OrderItemsTable;
  idempotency_keys: IdempotencyKeysTable;
  order_status_history: OrderStatusHistoryTable;
}
