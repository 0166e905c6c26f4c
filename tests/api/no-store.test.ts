import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsApi } from '../../domain/accounts.contract.js';
import { adminApi } from '../../domain/admin.contract.js';
import { catalogueApi } from '../../domain/catalogue.contract.js';
import { contactApi } from '../../domain/contact.contract.js';
import { API_BASE } from '../../domain/contract.js';
import { ordersContract } from '../../domain/orders.contract.js';
import { paymentsContract } from '../../domain/payments.contract.js';
import { postsApi } from '../../domain/posts.contract.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

/**
 * Every answer of a route that needs a session is `Cache-Control: no-store`: order history, the
 * admin's orders and dashboard, payments, the profile. Shared caches (a proxy, a CDN, the
 * browser's back-forward cache) must keep none of an account's data, nor a refusal of it.
 */
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const CONTRACTS = [
  accountsApi,
  adminApi,
  catalogueApi,
  contactApi,
  ordersContract,
  paymentsContract,
  postsApi,
];
const sessionRoutes = CONTRACTS.flatMap((c) =>
  Object.values(c as Record<string, { method: Method; path: string; access: string }>).filter(
    (e) => e.access !== 'public',
  ),
);
const urlOf = (path: string) => API_BASE + path.replace(/\{\w+\}/g, '1');

for (const dialect of DIALECTS) {
  describe(`no-store on session routes, on ${dialect}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await makeTestApp(dialect, { testPayments: true });
    });
    afterAll(async () => t.close());

    it('knows the routes that need a session', () => {
      expect(sessionRoutes.length).toBeGreaterThan(15);
    });

    it('answers no-store on every route that needs a session, when it refuses the session too', async () => {
      for (const e of sessionRoutes) {
        const res = await t.app.inject({ method: e.method, url: urlOf(e.path) });
        expect(res.statusCode, `${e.method} ${e.path}`).toBe(401);
        expect(res.headers['cache-control'], `${e.method} ${e.path}`).toBe('no-store');
      }
    });

    it('answers no-store on the account data a session reads', async () => {
      const shopper = await createUserWithToken(t.app);
      const admin = await createUserWithToken(t.app, { role: '1' });
      const product = await insertProduct(t.app);
      const placed = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...shopper.auth, 'idempotency-key': newKey() },
        payload: orderRequest([{ product }]),
      });
      expect(placed.statusCode).toBe(200);
      expect(placed.headers['cache-control']).toBe('no-store');
      const reads: [string, { authorization: string }][] = [
        [`/api/GetOrderHistoryByEmail?email=${encodeURIComponent(shopper.email)}`, shopper.auth],
        ['/api/GetAllUsersOrderHistory', admin.auth],
        ['/api/admin/orders', admin.auth],
        ['/api/admin/dashboard', admin.auth],
        [`/api/admin/orders/${placed.json().data.orderID}`, admin.auth],
        ['/api/GetUserProfile', shopper.auth],
      ];
      for (const [url, auth] of reads) {
        const res = await t.app.inject({ method: 'GET', url, headers: auth });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['cache-control'], url).toBe('no-store');
      }
      const providerOrder = await t.app.inject({
        method: 'POST',
        url: '/api/payments/razorpay/order',
        headers: { ...shopper.auth, 'idempotency-key': newKey() },
        payload: orderRequest([{ product }], { PaymentMethod: 'Razorpay' }),
      });
      expect(providerOrder.statusCode).toBe(200);
      expect(providerOrder.headers['cache-control']).toBe('no-store');
      // A public answer keeps its own caching.
      const categories = await t.app.inject({ method: 'GET', url: '/api/GetCategories' });
      expect(categories.headers['cache-control']).not.toBe('no-store');
    });
  });
}
