import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeProduct, putProducts, renderAt, resetStore, url } from './storefront-fixtures.js';

/**
 * The shop's route table (web/app/routes.tsx) in React Router's memory router: paths match
 * without regard to case, the spec's odd links land where they should, an unknown path is "Page
 * not found" in the storefront's layout, and the admin paths (patched in from a lazy chunk) are
 * not in the storefront's table.
 */
beforeEach(resetStore);
afterEach(cleanup);

describe('the route table', () => {
  it('matches paths without regard to case', async () => {
    renderAt('/ALL-Categories');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'All Categories' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(url()).toBe('/ALL-Categories');
  });

  it("sends the spec's /category/{name} to the category's products", async () => {
    await putProducts([makeProduct(1)]);
    renderAt('/category/Chocolate%20Cakes');
    await waitFor(() => expect(url()).toBe('/products-by-category/Chocolate%20Cakes'), { timeout: 5000 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Chocolate Cakes' })).toBeTruthy();
  });

  it("guards the spec's /Checkout like /checkout: to /login, coming back afterwards", async () => {
    renderAt('/Checkout');
    await waitFor(() => expect(url()).toBe('/login'), { timeout: 5000 });
    expect(localStorage.getItem('returnUrl')).toBe('/Checkout');
  });

  it('goes from / to /home, replacing the entry', async () => {
    renderAt('/');
    await waitFor(() => expect(url()).toBe('/home'));
  });

  it('says "Page not found" for an unknown path, with the header and footer', async () => {
    renderAt('/no/such/page');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Page not found.' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Login' })).toBeTruthy();
    fireEvent.click(within(screen.getByRole('banner')).getByRole('link', { name: 'Login' }));
    expect(await screen.findByRole('heading', { name: 'Login' }, { timeout: 5000 })).toBeTruthy();
  });

  it('keeps the origin of a Link to an absolute URL (the old router rendered https://wa.me/91… as /91…)', () => {
    const wa = 'https://wa.me/919876543210?text=Hello';
    const router = createMemoryRouter([{ path: '/contact', element: <Link to={wa}>WhatsApp</Link> }], {
      initialEntries: ['/contact'],
    });
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('link', { name: 'WhatsApp' }).getAttribute('href')).toBe(wa);
  });
});
