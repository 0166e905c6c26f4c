import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { messages } from '../../domain/messages.js';
import { SEARCH_PAGE_SIZE as PAGE } from '../../domain/search.js';
import { ProductGrid } from '../components/ProductCard.js';
import { useShopSettings } from '../hooks/useDelivery.js';
import { useSearch } from '../hooks/useSearch.js';
import { useTitle } from '../hooks/useTitle.js';
import { NoResults } from './NoResults.js';

/**
 * Search results for `?q=`, on the device over the whole local catalogue with the shop's synonyms,
 * best matches first (domain/search.ts); none: what to try instead (`NoResults.tsx`).
 */
export default function Search() {
  const [params] = useSearchParams();
  const query = (params.get('q') ?? '').trim();
  useTitle(messages.searchResultsFor(query));
  // Cards rendered at first: a broad query over a big catalogue would otherwise build thousands of them.
  const [shown, setShown] = useState({ query, count: PAGE });
  const count = shown.query === query ? shown.count : PAGE;
  const results = useSearch(query, count, useShopSettings()?.searchSynonyms);
  return (
    <div className="page">
      <h1>{messages.searchResultsFor(query)}</h1>
      {results &&
        (results.total ? (
          <>
            <p className="muted">{results.total === 1 ? '1 product' : `${results.total} products`}</p>
            <ProductGrid products={results.products} label="Search results" headingLevel={2} />
            {results.total > count && (
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
          <NoResults query={query} />
        ))}
    </div>
  );
}
