import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createElement, Fragment } from 'react';
import { createMemoryRouter, Link, Navigate, Outlet, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addToCart } from '../../sw/cart.js';
import { db } from '../../sw/db.js';
import { elsewhereRoutes } from '../../web/app/Elsewhere.js';
import { appRoutes } from '../../web/app/routes.js';
import { formatSynced, PwaStatus } from '../../web/pwa/PwaStatus.js';
import { getPwaState, setPwaState } from '../../web/pwa/pwa-state.js';
import { makeProduct } from './storefront-fixtures.js';

/**
 * The PWA status strip over the device's real (fake-indexeddb) store, placed as the app's
 * layouts place it: the storefront's (route id `storefront`) and the admin area's (`admin`).
 */
beforeEach(async () => {
  await Promise.all([db.meta.clear(), db.cart.clear()]);
  localStorage.clear();
  sessionStorage.clear();
  setPwaState({ offline: false, updateReady: false, canInstall: false, showIosInstallHint: false });
});
afterEach(() => cleanup());

const layout = () => createElement(Fragment, null, createElement(PwaStatus), createElement(Outlet));
function renderStrip(path = '/home') {
  const router = createMemoryRouter(
    [
      {
        id: 'storefront',
        element: layout(),
        children: [
          { path: '/', element: createElement(Navigate, { to: '/home', replace: true }) },
          { path: '/home', element: createElement(Link, { to: '/products' }, 'All Products') },
          { path: '/products', element: createElement('p', null, 'Every product') },
        ],
      },
      {
        id: 'admin',
        element: layout(),
        children: [
          { path: '/dashboard', element: createElement(Link, { to: '/product-list' }, 'Product List') },
          { path: '/product-list', element: createElement('p', null, 'Products') },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(createElement(RouterProvider, { router }));
  return router;
}

describe('PwaStatus', () => {
  it('shows nothing about syncing before the first sync, then the time of the last one', async () => {
    renderStrip();
    expect(screen.queryByText(/Catalogue synced/)).toBeNull();
    const at = new Date(2026, 10, 23, 16, 5).getTime();
    await act(() => db.meta.put({ key: 'lastSyncedAt', value: at }));
    const line = await screen.findByText(/Catalogue synced/);
    expect(line.querySelector('time')?.getAttribute('datetime')).toBe(new Date(at).toISOString());
  });

  it('says when the device is offline, in a polite status region', async () => {
    renderStrip();
    expect(screen.queryByText(/You are offline/)).toBeNull();
    act(() => setPwaState({ offline: true }));
    const note = screen.getByText(/You are offline/);
    expect(note.closest('[role="status"]')?.getAttribute('aria-live')).toBe('polite');
    act(() => setPwaState({ offline: false }));
    expect(screen.queryByText(/You are offline/)).toBeNull();
  });

  // The offers are a lazy chunk (PwaCards), so each test waits for them to arrive.
  it('offers a waiting update with Reload and Later; Later only hides the offer', async () => {
    renderStrip();
    expect(screen.queryByText('A new version is ready')).toBeNull();
    act(() => setPwaState({ updateReady: true }));
    expect(await screen.findByRole('region', { name: 'A new version is ready' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByText('A new version is ready')).toBeNull();
    expect(getPwaState().updateReady).toBe(false);
  });

  // The first of these tests: the offer waits for a look around, which the page remembers after.
  it('offers installation once the shopper has looked around (a second page), and Not now snoozes it', async () => {
    // The shop's address redirects to /home: still the first page.
    renderStrip('/');
    act(() => setPwaState({ canInstall: true, updateReady: true }));
    // The lazy cards have arrived (the update's), without the install offer on the first page.
    await screen.findByRole('region', { name: 'A new version is ready' });
    expect(screen.getByRole('link', { name: 'All Products' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Install app' })).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'All Products' }));
    await screen.findByText('Every product');
    expect(await screen.findByRole('button', { name: 'Install app' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('button', { name: 'Install app' })).toBeNull();
    expect(Number(localStorage.getItem('pwaInstallSnoozedAt'))).toBeGreaterThan(0);
  });

  it('explains installing on iOS, where there is no install prompt', async () => {
    renderStrip('/products');
    act(() => setPwaState({ showIosInstallHint: true }));
    expect(await screen.findByText(/Add to Home Screen/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Got it' }));
    expect(screen.queryByText(/Add to Home Screen/)).toBeNull();
  });
});

describe('the install offer waits for a look around and stays out of the admin area', () => {
  it('names the layouts as the app does: the storefront and the admin area', () => {
    expect(appRoutes()[0]?.children?.[0]?.id).toBe('storefront');
    expect(elsewhereRoutes[0]?.id).toBe('admin');
  });

  it('an item in the cart counts as looking around', async () => {
    // A fresh module state: this file's earlier tests have looked around already.
    vi.resetModules();
    const fresh = await import('../../web/pwa/PwaStatus.js');
    const state = await import('../../web/pwa/pwa-state.js');
    const router = createMemoryRouter(
      [{ id: 'storefront', path: '/home', element: createElement(fresh.PwaStatus) }],
      { initialEntries: ['/home'] },
    );
    render(createElement(RouterProvider, { router }));
    act(() => state.setPwaState({ canInstall: true, updateReady: true }));
    await screen.findByRole('region', { name: 'A new version is ready' });
    expect(screen.queryByRole('button', { name: 'Install app' })).toBeNull();
    await act(() => addToCart(makeProduct(1), null, 1, db));
    expect(await screen.findByRole('button', { name: 'Install app' })).toBeTruthy();
  });

  it('never offers installation on Checkout, where the card would push the form down', async () => {
    const router = createMemoryRouter([{ id: 'storefront', path: '*', element: createElement(PwaStatus) }], {
      initialEntries: ['/cart', '/checkout'],
      initialIndex: 1,
    });
    render(createElement(RouterProvider, { router }));
    await act(() => addToCart(makeProduct(1), null, 1, db));
    act(() => setPwaState({ canInstall: true, updateReady: true }));
    await screen.findByRole('region', { name: 'A new version is ready' });
    expect(screen.queryByRole('button', { name: 'Install app' })).toBeNull();
    // Back in the cart, it is offered.
    await act(() => router.navigate('/cart'));
    expect(await screen.findByRole('button', { name: 'Install app' })).toBeTruthy();
  });

  it('never offers installation in the admin area, while updates are offered there', async () => {
    const router = renderStrip('/dashboard');
    act(() => setPwaState({ canInstall: true, showIosInstallHint: true, updateReady: true }));
    await screen.findByRole('region', { name: 'A new version is ready' });
    fireEvent.click(screen.getByRole('link', { name: 'Product List' }));
    await screen.findByText('Products');
    await act(() => addToCart(makeProduct(1), null, 1, db));
    expect(screen.queryByRole('button', { name: 'Install app' })).toBeNull();
    expect(screen.queryByText(/Add to Home Screen/)).toBeNull();
    // Back in the shop, the same page offers it.
    await act(() => router.navigate('/products'));
    expect(await screen.findByRole('button', { name: 'Install app' })).toBeTruthy();
  });
});

describe('formatSynced', () => {
  it('shows only the time today and the date too on another day', () => {
    const now = new Date(2026, 10, 23, 18, 0).getTime();
    const today = formatSynced(new Date(2026, 10, 23, 9, 7).getTime(), now);
    const earlier = formatSynced(new Date(2026, 10, 20, 9, 7).getTime(), now);
    expect(today).toMatch(/9:07/);
    expect(today).not.toMatch(/Nov/);
    expect(earlier).toMatch(/20/);
    expect(earlier).toMatch(/Nov/);
  });

  it("writes what the device's en-IN clock writes, every month and hour", () => {
    const now = new Date(2026, 0, 1, 12, 0).getTime();
    for (let month = 0; month < 12; month++) {
      for (const [hour, minute] of [
        [0, 0],
        [0, 7],
        [9, 5],
        [11, 59],
        [12, 0],
        [13, 30],
        [23, 59],
      ] as const) {
        const at = new Date(2026, month, 14, hour, minute).getTime();
        expect(formatSynced(at, now)).toBe(
          new Date(at).toLocaleString('en-IN', {
            day: 'numeric',
            month: 'short',
            hour: 'numeric',
            minute: '2-digit',
          }),
        );
        expect(formatSynced(at, at)).toBe(
          new Date(at).toLocaleString('en-IN', { hour: 'numeric', minute: '2-digit' }),
        );
      }
    }
  });
});
