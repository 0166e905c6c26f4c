/**
 * The shopper's receipt on SQLite and PostgreSQL: one mail for the placing that made an order
 * (never for a replay of its key, nor for a refused order), with its lines, total, delivery day and
 * the shop's FSSAI number and legal name from the profile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROFILE } from '../../domain/shop-profile.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';
import { startSmtp, type TestSmtp, textOf } from '../support/smtp.js';

for (const dialect of DIALECTS) {
  describe(`the order's receipt on ${dialect}`, () => {
    let t: TestApp;
    let smtp: TestSmtp;
    let shopper: Awaited<ReturnType<typeof createUserWithToken>>;
    let cake: FixtureProduct;

    beforeAll(async () => {
      smtp = await startSmtp();
      t = await makeTestApp(dialect, { smtpUrl: smtp.url });
      const admin = await createUserWithToken(t.app, { role: '1' });
      const profile = { ...DEMO_PROFILE, legalName: 'Kaur Bakers Private Limited', fssai: '10020042007183' };
      const saved = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/settings',
        headers: admin.auth,
        payload: { profile },
      });
      expect(saved.statusCode).toBe(200);
      shopper = await createUserWithToken(t.app, { email: `receipt-${dialect}@example.test` });
      cake = await insertProduct(t.app, { title: `Receipt Cake ${dialect}`, price: 900 });
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    const place = (key: string, overrides = {}) =>
      t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...shopper.auth, 'idempotency-key': key },
        payload: orderRequest([{ product: cake, quantity: 2 }], overrides),
      });

    it('mails one receipt for the order, none for its replay', async () => {
      const key = newKey();
      const first = await place(key);
      expect(first.statusCode, first.body).toBe(200);
      const id = first.json().data.orderID as number;
      const mail = textOf(await smtp.take(shopper.email));
      expect(mail).toContain(`your order #${id} is placed`);
      expect(mail).toContain(`2 x Receipt Cake ${dialect}`);
      expect(mail).toContain('FSSAI Lic. No. 10020042007183');
      expect(mail).toContain('Kaur Bakers Private Limited');
      const again = await place(key);
      expect(again.headers['idempotent-replayed']).toBe('true');
      await t.app.mailer.drain();
      expect(smtp.to(shopper.email)).toHaveLength(1);
    });

    it('mails nothing for an order it refuses', async () => {
      const refused = await place(newKey(), { CustomerPincode: '999999' });
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
      await t.app.mailer.drain();
      expect(smtp.to(shopper.email)).toHaveLength(1);
    });
  });
}
