/**
 * An order's lines, the same on order success, queued orders, My Orders and the order page: the
 * picture, the product, what was chosen ("Weight: 1 kg", `lineOption` of domain/order-lines.ts),
 * how many at what price, the cake's message as typed, the cake's photo, and the line's sum. Each screen turns what
 * it holds (the server's lines, a queued request, a history row) into `ShownLine`s.
 */
import { Link } from 'react-router-dom';
import { giftMessages } from '../../domain/gifts.js';
import { formatRupees } from '../../domain/money.js';
import { ProductImage } from '../components/ProductImage.js';
import { CakePhoto, type LinePhoto } from './CakePhoto.js';
import './checkout.css';

export interface ShownLine {
  /** Null: a line the spec's client named only by its title. */
  productID: number | null;
  title: string;
  /** The option chosen, in words; null: the product has none to choose. */
  option: string | null;
  /** Null: a copy kept on the device before the price of one was. */
  unitPrice: number | null;
  quantity: number;
  /** Null where `unitPrice` is. */
  lineTotal: number | null;
  image: string;
  message: string | null;
  /** A photo cake's photo, shown to the shopper who uploaded it; absent or null: none. */
  photo?: LinePhoto | null;
}

export function OrderLineList({
  lines,
  linkProducts = false,
  className,
}: {
  lines: readonly ShownLine[];
  /** The title links to the product's page (the order page). */
  linkProducts?: boolean;
  className?: string;
}) {
  return (
    <ul className={className ? `order-items ${className}` : 'order-items'}>
      {lines.map((l, n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: an order's lines never reorder.
        <li key={n} className="order-item">
          <ProductImage src={l.image} alt="" className="order-item__img" width={56} height={56} />
          <OrderLineText line={l} link={linkProducts} />
          {l.lineTotal === null ? null : (
            <span className="order-item__total">{formatRupees(l.lineTotal)}</span>
          )}
          {l.photo ? <CakePhoto photo={l.photo} name={l.title} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** A line's words without its picture or sum (My Orders' table has its own columns for those). */
export function OrderLineText({ line, link = false }: { line: ShownLine; link?: boolean }) {
  return (
    <span className="order-item__text">
      <span className="order-item__title">
        {link && line.productID !== null ? (
          <Link to={`/products-details/${line.productID}`}>{line.title}</Link>
        ) : (
          line.title
        )}
      </span>
      {line.option ? <span className="order-item__option">{line.option}</span> : null}
      <span className="order-item__qty">
        {line.unitPrice === null
          ? `Quantity ${line.quantity}`
          : `${line.quantity} × ${formatRupees(line.unitPrice)}`}
      </span>
      {line.message ? (
        <span className="order-item__message">{giftMessages.onTheCake(line.message)}</span>
      ) : null}
    </span>
  );
}
