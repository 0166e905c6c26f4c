/** The URL of a product's page; the product also travels in navigation state, as the spec's route expects. */
import { useDeferredValue } from 'react';
import { Link } from 'react-router-dom';
import type { Product } from '../../domain/catalogue.js';
import { cardImage } from '../../domain/catalogue-media.js';
import { formatRupees } from '../../domain/money.js';
import { ProductImage } from './ProductImage.js';

function productUrl(p: Pick<Product, 'productID'>): string {
  return `/products-details/${p.productID}`;
}

/**
 * A product card: first image, title and price, opening the product's page.
 * With `onAdd` it also has an Add to Cart button that adds without opening
 * the page (All Products, category products).
 */
export function ProductCard({
  product,
  onAdd,
  eager = false,
  priority = false,
  headingLevel = 3,
}: {
  product: Product;
  onAdd?: ((p: Product) => void) | undefined;
  eager?: boolean;
  /** The likely largest image of the screen: fetched before the others. */
  priority?: boolean;
  /** 2 where the grid sits right under the page's h1, 3 under a section's h2 (headings never skip a level). */
  headingLevel?: 2 | 3;
}) {
  const Title = headingLevel === 2 ? 'h2' : 'h3';
  const image = cardImage(product);
  return (
    <article className="card">
      <Link to={productUrl(product)} state={{ product }} className="card__link">
        <ProductImage className="card__img" src={image} alt="" eager={eager} priority={priority} />
        <Title className="card__title">{product.title}</Title>
        <p className="card__price">{formatRupees(product.price)}</p>
      </Link>
      {onAdd && (
        <button type="button" className="btn btn--primary card__add" onClick={() => onAdd(product)}>
          Add to Cart<span className="visually-hidden">: {product.title}</span>
        </button>
      )}
    </article>
  );
}

export function ProductGrid({
  products,
  onAdd,
  label,
  headingLevel = 3,
  belowFold = false,
}: {
  products: readonly Product[];
  onAdd?: (p: Product) => void;
  label?: string;
  headingLevel?: 2 | 3;
  /** A grid further down the screen (home's later sections, related lists): every image loads lazily. */
  belowFold?: boolean;
}) {
  // A big answer (the catalogue landing, a sync changing many rows) re-renders the cards as a
  // transition, in slices that yield to taps; the cards shown stay until it is done.
  const shown = useDeferredValue(products);
  return (
    <ul className="grid" aria-label={label}>
      {shown.map((p, i) => (
        <li key={p.productID}>
          {/* The first two rows (phone) are above the fold: load them at once, the rest lazily. */}
          <ProductCard
            product={p}
            onAdd={onAdd}
            eager={!belowFold && i < 4}
            priority={!belowFold && i === 0}
            headingLevel={headingLevel}
          />
        </li>
      ))}
    </ul>
  );
}
