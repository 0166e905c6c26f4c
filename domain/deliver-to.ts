/**
 * Where an order goes, as the shopper reads it back on order success, My Orders and the order
 * page: their own name, address and phone, or, for a gift to someone else, the recipient's name
 * and phone at the address the shopper gave (the order's address is the recipient's then). One
 * rule for every screen, so a gift never shows the buyer's phone as the one the rider calls.
 */
import * as v from 'valibot';

export const DeliverToSchema = v.object({
  /** Who receives it: the shopper, or the gift's recipient. */
  name: v.string(),
  /** The phone the rider calls. */
  phone: v.string(),
  address: v.string(),
  city: v.string(),
  state: v.string(),
  pincode: v.string(),
  /** True when it goes to someone else (a gift with a recipient). */
  gift: v.boolean(),
});
export type DeliverTo = v.InferOutput<typeof DeliverToSchema>;

/** An order's delivery fields in any of its shapes (the server's row, a placed order, a request). */
export interface OrderPlace {
  customerName: string;
  customerPhone: string;
  customerAddress: string;
  city: string;
  state: string;
  pincode: string | number;
  recipient: { name: string; phone: string } | null | undefined;
}

export function deliverToOf(o: OrderPlace): DeliverTo {
  const r = o.recipient;
  return {
    name: r ? r.name.trim() : o.customerName.trim(),
    phone: r ? r.phone.trim() : o.customerPhone.trim(),
    address: o.customerAddress.trim(),
    city: o.city.trim(),
    state: o.state.trim(),
    pincode: String(o.pincode).trim(),
    gift: Boolean(r),
  };
}
