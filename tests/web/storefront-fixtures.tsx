import { render } from '@testing-library/react';
import { createMemoryRouter, type RouteObject } from 'react-router-dom';
import type { Category, Product, Variation } from '../../domain/catalogue.js';
import { toStored } from '../../sw/catalogue-sync.js';
import { db } from '../../sw/db.js';
import { writeProducts } from '../../sw/product-chunks.js';
import { App } from '../../web/app/App.js';
import { appRoutes, routerOptions } from '../../web/app/routes.js';

/** Helpers for the storefront's component tests: real Dexie over fake-indexeddb, the real app shell. */

export function makeProduct(
  id: number,
  over: Partial<Product> & { cats?: Category[]; variations?: Variation[] } = {},
): Product {
  const cats = over.cats ?? [{ categoryID: 13, categoryName: 'Chocolate Cakes' }];
  const { cats: _c, ...rest } = over;
  return {
    productID: id,
    title: `Product ${id}`,
    description: `<p>Tasty thing number ${id}</p>`,
    price: 500 + id,
    imagePath: `/media/p${id}-640.webp`,
    categories: cats,
    categoryName: cats.map((c) => c.categoryName).join(', '),
    labelHeading: 'Eggless',
    labelDescription: 'Made fresh',
    sizeOrWeight: '1 kg',
    variations: [],
    images: [],
    updatedAt: '2026-11-23T00:00:00.000Z',
    version: 1,
    takesMessage: false,
    photoCake: false,
    ...rest,
  };
}

export async function putProducts(products: Product[]): Promise<void> {
  await writeProducts(db, products.map(toStored), []);
}

export async function resetStore(): Promise<void> {
  await Promise.all(db.tables.map((t) => t.clear()));
  localStorage.clear();
}

let router: ReturnType<typeof createMemoryRouter> | null = null;
/** The router's current URL (path and query), or the one it is on its way to (a lazy screen loading). */
export function url(): string {
  const l = router?.state.navigation.location ?? router?.state.location;
  return l ? `${l.pathname}${l.search}` : '';
}

/**
 * The real app at `path` (with navigation `state` when given): the shop's own route table in a
 * memory router; `extra` screens join the storefront layout (a failing screen, a bare guard).
 */
export function renderAt(path: string, state?: unknown, extra: RouteObject[] = []) {
  router = createMemoryRouter(appRoutes(extra), {
    ...routerOptions(),
    initialEntries: [state === undefined ? path : { pathname: path, state }],
  });
  return render(<App router={router} />);
}

/** Moves the rendered app's router, as a link (a path) or the browser's Back and Forward (-1, 1) would. */
export async function navigate(to: string | number): Promise<void> {
  if (!router) throw new Error('Nothing is rendered: call renderAt first.');
  await (typeof to === 'number' ? router.navigate(to) : router.navigate(to));
}
