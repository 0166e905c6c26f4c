import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { inCategory } from '../../domain/catalogue-media.js';
import { messages } from '../../domain/messages.js';
import { categoryListName } from '../../domain/visit-order.js';
import { AddedPopup } from '../components/AddedPopup.js';
import { ProductGrid } from '../components/ProductCard.js';
import { useAddWithPopup } from '../hooks/useAddToCart.js';
import { useAllProducts, useCategories, useVisitOrder } from '../hooks/useProducts.js';
import { useTitle } from '../hooks/useTitle.js';

/**
 * Products of one category, by the name in the route, matched trimmed and
 * case-insensitively against each product's category names (`inCategory`),
 * in random order kept for the visit (`useVisitOrder`: Back finds the same
 * cards at the same place), with the spec's added-to-cart popup.
 */
export default function CategoryProducts() {
  const { category = '' } = useParams();
  const name = category.trim();
  // The heading shows the category's own spelling when the device knows it ("all cakes" → "All Cakes").
  const known = useCategories()?.find((c) => c.categoryName.trim().toLowerCase() === name.toLowerCase());
  const title = known?.categoryName ?? name;
  useTitle(title || 'Products');
  const all = useAllProducts();
  const matching = useMemo(() => all?.filter((p) => inCategory(p, name)), [all, name]);
  const products = useVisitOrder(categoryListName(category), matching);
  const { add, popup, closePopup } = useAddWithPopup();
  return (
    <div className="page">
      <h1>{title || 'Products'}</h1>
      {products &&
        (products.length ? (
          <ProductGrid products={products} onAdd={(p) => void add(p)} label={title} headingLevel={2} />
        ) : (
          <p className="empty">{messages.noProductsFound}</p>
        ))}
      {popup && <AddedPopup key={popup.id} text={popup.text} onClose={closePopup} />}
    </div>
  );
}
