import type { Kysely, Selectable } from 'kysely';
import type { PackingSlip } from '../../domain/gifts.contract.js';
import { WITH_LOVE } from '../../domain/gifts.js';
import type { OrderStatus } from '../../domain/orders.js';
import type { PaymentMethod } from '../../domain/payment-methods.js';
import type { Database } from '../db/schema.js';
import { linesOfOrders, orderGiftOf, orderSlotOf } from '../orders/order.repository.js';
import type { OrdersTable } from '../orders/order.tables.js';
import { readShopSettings } from '../settings/settings.service.js';

/**
 * The packing slip of an order. With "no price in the box" the answer has no price field at
 * all, rather than prices the printing page promises to hide: what is not sent cannot be
 * printed. The card is signed with the buyer's name, or "With love" when the sender is hidden.
 * One order's slip and the day's slips are made by the same function from the same rows.
 */
export async function packingSlip(db: Kysely<Database>, orderId: number): Promise<PackingSlip | null> {
  const o = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
  if (!o) return null;
  const [slip] = await packingSlips(db, [o]);
  return slip ?? null;
}

/** The slips of these orders, in their order; their lines come in one query. */
export async function packingSlips(
  db: Kysely<Database>,
  orders: readonly Selectable<OrdersTable>[],
): Promise<PackingSlip[]> {
  const [byOrder, { profile }] = await Promise.all([
    linesOfOrders(
      db,
      orders.map((o) => o.id),
    ),
    readShopSettings(db),
  ]);
  const seller = {
    name: profile.name,
    legalName: profile.legalName,
    phone: profile.care.phone,
    fssai: profile.fssai,
  };
  return orders.map((o) => {
    const gift = orderGiftOf(o);
    const slip: PackingSlip = {
      orderID: o.id,
      status: o.status as OrderStatus,
      deliveryDate: o.delivery_date,
      slot: orderSlotOf(o),
      deliverTo: gift.recipient ?? { name: o.customer_name, phone: o.customer_phone },
      recipient: gift.recipient,
      address: o.customer_address,
      city: o.city,
      state: o.state,
      pincode: o.pincode,
      lines: (byOrder.get(o.id) ?? []).map((l) => ({
        productName: l.productName,
        variationName: l.variationName,
        variationValue: l.variationValue,
        quantity: l.quantity,
        cakeMessage: l.cakeMessage,
        photoID: l.photoID,
        ...(gift.hidePrice ? {} : { unitPrice: l.unitPrice, lineTotal: l.lineTotal }),
      })),
      card: gift.card
        ? {
            occasion: gift.card.occasion,
            message: gift.card.message,
            from: gift.hideSender ? WITH_LOVE : o.customer_name,
          }
        : null,
      hidePrice: gift.hidePrice,
      hideSender: gift.hideSender,
      paymentMethod: o.payment_method as PaymentMethod,
      seller,
    };
    if (!gift.hidePrice) slip.total = Number(o.total);
    return slip;
  });
}
