import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { messages } from '../../domain/messages.js';
import { ProductGrid } from '../components/ProductCard.js';
import { useAddToCart } from '../hooks/useAddToCart.js';
import { useAllProducts, useCategories, useVisitOrder } from '../hooks/useProducts.js';
import { useTitle } from '../hooks/useTitle.js';

/**
 * All Products: every product on the device, shuffled for the visit (`useVisitOrder`), each with
 * Add to Cart (spec section 2).
 * With `?categoryId=` (the API's filter, used in links to this page) it lists and is titled by
 * that category, as the server's head for the address says.
 */
export default function AllProducts() {
  const [params] = useSearchParams();
  const categoryId = params.get('categoryId');
  const categories = useCategories();
  const category = categories?.find((c) => String(c.categoryID) === categoryId);
  // Until the device's categories are read, the page cannot tell which list it shows: it shows none.
  const waiting = categoryId !== null && categories === undefined;
  const heading = category?.categoryName ?? 'All Products';
  useTitle(waiting ? undefined : heading);
  const all = useAllProducts();
  const shown = useMemo(() => {
    if (waiting) return undefined;
    return category
      ? all?.filter((p) => p.categories.some((c) => c.categoryID === category.categoryID))
      : all;
  }, [all, category, waiting]);
  // Its own order for the visit, like a category's (an id, not a name: no category is called that).
  const ordered = useVisitOrder(categoryId === null ? '#all' : `#${categoryId}`, shown);
  const products = waiting ? undefined : ordered;
  const add = useAddToCart();
  return (
    <div className="page">
      {!waiting && <h1>{heading}</h1>}
      {products &&
        (products.length ? (
          <ProductGrid products={products} onAdd={(p) => void add(p)} label={heading} headingLevel={2} />
        ) : (
          <p className="empty">{messages.noProductsFound}</p>
        ))}
    </div>
  );
}
