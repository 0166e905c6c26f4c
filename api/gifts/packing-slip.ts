import type { Kysely } from 'kysely';
import type { PackingSlip } from '../../domain/gifts.contract.js';
import { WITH_LOVE } from '../../domain/gifts.js';
import type { Database } from '../db/schema.js';
import { orderGiftOf, orderLines, orderSlotOf } from '../orders/order.repository.js';

/**
 * The packing slip of an order (issue 26). With "no price in the box" the answer has no price
 * field at all, rather than prices the printing page promises to hide: what is not sent cannot
 * be printed. The card is signed with the buyer's name, or "With love" when the sender is hidden.
 */
export async function packingSlip(db: Kysely<Database>, orderId: number): Promise<PackingSlip | null> {
  const o = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
  if (!o) return null;
  const gift = orderGiftOf(o);
  const lines = await orderLines(db, orderId);
  const slip: PackingSlip = {
    orderID: o.id,
    deliveryDate: o.delivery_date,
    slot: orderSlotOf(o),
    deliverTo: gift.recipient ?? { name: o.customer_name, phone: o.customer_phone },
    recipient: gift.recipient,
    address: o.customer_address,
    city: o.city,
    state: o.state,
    pincode: o.pincode,
    lines: lines.map((l) => ({
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
  };
  if (!gift.hidePrice) slip.total = Number(o.total);
  return slip;
}
