/**
 * "Deliver to" on order success, My Orders and the order page: the name, the address with its
 * town and pincode once (`addressLines`, domain/address.ts), and the phone the rider calls
 * (`deliverToOf` in domain/deliver-to.ts).
 */
import { addressLines } from '../../domain/address.js';
import type { DeliverTo as Place } from '../../domain/deliver-to.js';
import './checkout.css';

export function DeliverTo({ to }: { to: Place }) {
  // The street as typed, then the town and pincode once (`domain/address.ts`, as the slips do).
  const [street, place] = addressLines(to);
  return (
    <span className="co-deliver-to">
      <span>{to.gift ? `${to.name} (a gift from you)` : to.name}</span>
      {street ? <span>{street}</span> : null}
      {place ? <span>{place}</span> : null}
      <span>{to.phone}</span>
    </span>
  );
}
