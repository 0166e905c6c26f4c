/**
 * "Deliver to" on order success, My Orders and the order page: the name, the address with its
 * town and pincode, and the phone the rider calls (`deliverToOf` in domain/deliver-to.ts).
 */
import { type DeliverTo as Place, placeLine } from '../../domain/deliver-to.js';
import './checkout.css';

export function DeliverTo({ to }: { to: Place }) {
  const place = placeLine(to);
  return (
    <span className="co-deliver-to">
      <span>{to.gift ? `${to.name} (a gift from you)` : to.name}</span>
      <span>{to.address}</span>
      {place ? <span>{place}</span> : null}
      <span>{to.phone}</span>
    </span>
  );
}
