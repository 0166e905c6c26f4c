import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { messages } from '../../domain/messages.js';
import { ProductGrid } from '../components/ProductCard.js';
import { useSearch } from '../hooks/useSearch.js';
import { useTitle } from '../hooks/useTitle.js';

/** Cards rendered at first; a broad query over a big catalogue would otherwise build thousands of them. */
const PAGE = 48;

/** Search results for `?q=`, on the device over the whole local catalogue, best matches first. */
export default function Search() {
  const [params] = useSearchParams();
  const query = (params.get('q') ?? '').trim();
  const results = useSearch(query);
  useTitle(messages.searchResultsFor(query));
  const [shown, setShown] = useState({ query, count: PAGE });
  const count = shown.query === query ? shown.count : PAGE;
  return (
    <div className="page">
      <h1>{messages.searchResultsFor(query)}</h1>
      {results &&
        (results.length ? (
          <>
            <p className="muted">{results.length === 1 ? '1 product' : `${results.length} products`}</p>
            <ProductGrid products={results.slice(0, count)} label="Search results" headingLevel={2} />
            {results.length > count && (
              <button
                type="button"
                className="btn btn--outline btn--block"
                onClick={() => setShown({ query, count: count + PAGE })}
              >
                Show more results
              </button>
            )}
          </>
        ) : (
          <div className="empty">
            <p>{messages.noResultsFound}</p>
            <Link to="/products">See all products</Link>
          </div>
        ))}
    </div>
  );
}
