/**
 * The shop's search over its whole catalogue, the rule the device runs too (domain/search.ts), with
 * the shop's synonyms: the spec's search endpoint answers with it, and a first visit's search page
 * names the pictures of its first results from it (api/pages), so both give the device's order.
 */
import type { Product } from '../../domain/catalogue.js';
import { search, synonymMap } from '../../domain/search.js';
import { readSomeSettings } from '../settings/settings.service.js';
import type { ProductListCache } from './catalogue.cache.js';
import { currentVersion, type Executor } from './catalogue.repository.js';

/**
 * Matching products, best first; `version` when the caller has just read it. The synonyms are read
 * at every search: a change on any process counts at once.
 */
export async function searchCatalogue(
  db: Executor,
  lists: ProductListCache,
  q: string,
  version?: number,
): Promise<Product[]> {
  // The spec: an empty query gives no results (and costs no database read).
  if (!q.trim()) return [];
  const [known, { searchSynonyms }] = await Promise.all([
    version ?? currentVersion(db),
    readSomeSettings(db, ['searchSynonyms']),
  ]);
  const { products } = await lists.get(db, known, { all: true });
  return search(products, q, synonymMap(searchSynonyms));
}
