/**
 * A search with no match: the spec's "No results found", then never a dead end: the occasions
 * and categories nearest to what was typed (`domain/search-nearest.ts`), each a link to its
 * products, and a few of the shop's products, all from the device's copy, offline too.
 */
import { Link } from 'react-router-dom';
import { messages } from '../../domain/messages.js';
import { nearest, noResultsMessages as t } from '../../domain/search-nearest.js';
import { categoryUrl } from '../components/category-url.js';
import { ProductGrid } from '../components/ProductCard.js';
import { useDeviceCategories } from '../hooks/useDeviceCategories.js';
import { useSearchFallback } from '../hooks/useSearch.js';

/** Links offered of each kind, and products shown. */
const OFFERED = 4;

export function NoResults({ query }: { query: string }) {
  const fallback = useSearchFallback(OFFERED);
  const categories = useDeviceCategories() ?? [];
  const occasions = nearest(query, fallback?.occasions ?? [], (o) => o, OFFERED);
  const near = nearest(query, categories, (c) => c.categoryName, OFFERED);
  return (
    <div className="empty no-results">
      <p>{messages.noResultsFound}</p>
      {occasions.length > 0 && (
        <section aria-labelledby="no-results-occasions">
          <h2 id="no-results-occasions">{t.occasions}</h2>
          <ul className="no-results__links">
            {occasions.map((o) => (
              <li key={o}>
                <Link className="chip" to={`/search?q=${encodeURIComponent(o)}`}>
                  {o}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      {near.length > 0 && (
        <section aria-labelledby="no-results-categories">
          <h2 id="no-results-categories">{t.categories}</h2>
          <ul className="no-results__links">
            {near.map((c) => (
              <li key={c.categoryID}>
                <Link className="chip" to={categoryUrl(c.categoryName)}>
                  {c.categoryName}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      {fallback && fallback.products.length > 0 && (
        <section aria-labelledby="no-results-products">
          <h2 id="no-results-products">{t.products}</h2>
          <ProductGrid products={fallback.products} label={t.products} headingLevel={3} />
        </section>
      )}
      <Link to="/products">See all products</Link>
    </div>
  );
}
