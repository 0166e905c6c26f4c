import { messages } from '../../domain/messages.js';
import { ProductGrid } from '../components/ProductCard.js';
import { useAddToCart } from '../hooks/useAddToCart.js';
import { useAllProducts, useStableShuffle } from '../hooks/useCatalogue.js';
import { useTitle } from '../hooks/useTitle.js';

/** All Products: every product on the device, shuffled, each with Add to Cart (spec section 2). */
export default function AllProducts() {
  useTitle('All Products');
  const products = useStableShuffle(useAllProducts());
  const add = useAddToCart();
  return (
    <div className="page">
      <h1>All Products</h1>
      {products &&
        (products.length ? (
          <ProductGrid products={products} onAdd={(p) => void add(p)} label="All Products" headingLevel={2} />
        ) : (
          <p className="empty">{messages.noProductsFound}</p>
        ))}
    </div>
  );
}
