import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkoutMessages } from '../../domain/checkout-messages.js';
import { CATEGORIES } from '../../domain/shop.js';
import { db } from '../../sw/db.js';
import { setPwaState } from '../../web/pwa/pwa-state.js';
import { placedAnswer } from '../support/order-fixtures.js';
import { queuedRow } from '../support/shopper.js';
import { makeProduct, putProducts, renderAt, resetStore } from './storefront-fixtures.js';

/**
 * Each screen keeps the document's title (and the canonical link the server wrote) current as the
 * shopper moves: the server's head describes only the first page loaded.
 */
const { chocolate, allFlowers } = CATEGORIES;

beforeEach(async () => {
  await resetStore();
  await db.categories.bulkPut([chocolate, allFlowers]);
  await putProducts([
    makeProduct(1, { title: 'Choco cake', cats: [chocolate] }),
    makeProduct(2, { title: 'Roses', cats: [allFlowers] }),
  ]);
});
afterEach(() => {
  cleanup();
  setPwaState({ offline: false });
  for (const link of document.head.querySelectorAll('link[rel="canonical"]')) link.remove();
});

describe('page titles', () => {
  it('names the category on /products?categoryId= and lists only its products', async () => {
    renderAt(`/products?categoryId=${chocolate.categoryID}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Chocolate Cakes' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Chocolate Cakes | Bakery & Blooms'));
    await screen.findByText('Choco cake');
    expect(screen.queryByText('Roses')).toBeNull();
  });

  it('stays All Products without a category', async () => {
    renderAt('/products');
    expect(await screen.findByRole('heading', { level: 1, name: 'All Products' })).toBeTruthy();
    await screen.findByText('Roses');
    expect(document.title).toBe('All Products | Bakery & Blooms');
  });

  it("names the category on its own page, in the category's own spelling", async () => {
    renderAt('/products-by-category/chocolate cakes');
    await waitFor(() => expect(document.title).toBe('Chocolate Cakes | Bakery & Blooms'));
  });

  it('moves the canonical link to the screen it shows', async () => {
    const link = document.createElement('link');
    link.rel = 'canonical';
    link.href = `${location.origin}/home`;
    document.head.append(link);
    renderAt('/products-details/1');
    await waitFor(() => expect(document.title).toBe('Choco cake | Bakery & Blooms'));
    expect(link.href).toBe(`${location.origin}/products-details/1`);
  });

  it('names the checkout "Checkout" in the tab and the history', async () => {
    // Offline, so the screen reaches for no network (payment methods, saved recipients).
    setPwaState({ offline: true });
    localStorage.setItem('token', 'a.eyJzdWIiOjcsImV4cCI6NDEwMjQ0NDgwMH0.sig');
    localStorage.setItem('userId', '7');
    localStorage.setItem('email', 'asha@example.com');
    localStorage.setItem('phone', '9876543210');
    await db.cart.put({
      key: '1:base',
      productID: 1,
      variationID: null,
      variationName: null,
      title: 'Choco cake',
      image: '/media/p1-320.webp',
      price: 600,
      quantity: 1,
      addedAt: 1,
    });
    renderAt('/checkout');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Checkout' }, { timeout: 15_000 }),
    ).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Checkout | Bakery & Blooms'));
  }, 30_000);
});

describe('page titles of the account screens', () => {
  /** A session the login guard lets through (it asks the server only when online). */
  function signIn(): void {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const exp = Math.floor(Date.now() / 1000) + 3600;
    localStorage.setItem('token', `${b64({ alg: 'HS256' })}.${b64({ sub: 7, exp })}.sig`);
    localStorage.setItem('userId', '7');
    localStorage.setItem('email', 'asha@example.com');
    localStorage.setItem('phone', '9876543210');
  }
  beforeEach(() => setPwaState({ offline: true }));
  afterEach(() => setPwaState({ offline: false }));

  it.each([
    ['/login', 'Login'],
    ['/register', 'Create an account'],
    ['/otp', 'Verify your email'],
    ['/forget-password', 'Forgot password'],
    ['/verify-reset-otp?email=asha%40example.com', 'Reset password'],
  ])('names %s in the tab and the history', async (path, title) => {
    renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe(`${title} | Bakery & Blooms`));
  });

  it('names My Profile', async () => {
    signIn();
    renderAt('/my-profile');
    expect(await screen.findByRole('heading', { level: 1, name: 'My Profile' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('My Profile | Bakery & Blooms'));
  });
});

describe("the order screens' titles", () => {
  const signIn = () => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const exp = Math.floor(Date.now() / 1000) + 3600;
    localStorage.setItem('token', `${b64({ alg: 'HS256' })}.${b64({ sub: 7, exp })}.sig`);
    localStorage.setItem('userId', '7');
    localStorage.setItem('email', 'asha@example.com');
  };
  const row = (key: string) =>
    queuedRow(
      { token: '', role: '0', veryOtpLoginID: 7, email: 'asha@example.com', phone: '9876543210' },
      { productID: 1, title: 'Choco cake', price: 501 },
      key,
      Date.now(),
    );
  beforeEach(() => setPwaState({ offline: true }));
  afterEach(() => setPwaState({ offline: false }));

  it('order success names the placed order, or says the order waits on the phone', async () => {
    const sent = row('k-sent');
    await db.outbox.bulkPut([
      { ...sent, state: 'sent', placed: placedAnswer(41, sent.request), announced: true },
      row('k-queued'),
    ]);
    signIn();
    renderAt('/order-success?order=k-sent');
    await waitFor(() => expect(document.title).toBe('Order #41 placed | Bakery & Blooms'));
    cleanup();
    renderAt('/order-success?order=k-queued');
    await waitFor(() =>
      expect(document.title).toBe(`${checkoutMessages.successQueuedTitle} | Bakery & Blooms`),
    );
  });

  it('My Orders is titled Your Orders', async () => {
    await db.orderHistory.put({ userId: 7, rows: [], fetchedAt: Date.now() });
    signIn();
    renderAt('/my-orders');
    await screen.findByRole('heading', { level: 1, name: 'Your Orders' });
    await waitFor(() => expect(document.title).toBe('Your Orders | Bakery & Blooms'));
  });
});
