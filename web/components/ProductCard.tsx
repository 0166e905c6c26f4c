import { Link } from 'react-router-dom';
import { firstImage, type Product } from '../../domain/catalogue.js';
import { formatRupees } from '../../domain/money.js';
import { ProductImage } from './ProductImage.js';

/** The URL of a product's page; the product also travels in navigation state, as the spec's route expects. */
export function productUrl(p: Pick<Product, 'productID'>): string {
  return `/products-details/${p.productID}`;
}

/** The card image: the stored card variant when the product has one, else its first listed image. */
export function cardImage(p: Pick<Product, 'images' | 'imagePath'>): { src: string; srcSet?: string } {
  const img = p.images[0];
  if (img) return { src: img.thumb, srcSet: img.srcset };
  return { src: firstImage(p) };
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
}: {
  product: Product;
  onAdd?: ((p: Product) => void) | undefined;
  eager?: boolean;
}) {
  const image = cardImage(product);
  return (
    <article className="card">
      <Link to={productUrl(product)} state={{ product }} className="card__link">
        <ProductImage
          className="card__img"
          src={image.src}
          srcSet={image.srcSet}
          sizes="(min-width: 768px) 240px, 50vw"
          alt=""
          eager={eager}
        />
        <h3 className="card__title">{product.title}</h3>
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
}: {
  products: readonly Product[];
  onAdd?: (p: Product) => void;
  label?: string;
}) {
  return (
    <ul className="grid" aria-label={label}>
      {products.map((p, i) => (
        <li key={p.productID}>
          {/* The first row is above the fold: load it at once, the rest lazily. */}
          <ProductCard product={p} onAdd={onAdd} eager={i < 2} />
        </li>
      ))}
    </ul>
  );
}
