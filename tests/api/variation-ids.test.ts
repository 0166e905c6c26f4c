import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../domain/catalogue.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

/**
 * Carts and queued orders hold an option's id: an admin's edit of the product keeps the id of
 * every option still offered, so an order made before the edit is priced anew, not refused as gone.
 */
for (const dialect of DIALECTS) {
  describe(`option ids across a product edit on ${dialect}`, () => {
    let t: TestApp;
    let admin: { authorization: string };
    beforeAll(async () => {
      t = await makeTestApp(dialect);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
    });
    afterAll(async () => t.close());

    it('keeps the ids of options still offered, drops the removed, adds the new', async () => {
      const cake = await insertProduct(t.app, {
        title: `Chocolate Truffle ${dialect}`,
        price: 649,
        sizeOrWeight: '0.5 kg',
        variations: [
          { value: '1 kg', price: 1199 },
          { value: '2 kg', price: 2299 },
        ],
      });
      const [oneKg, twoKg] = cake.variations;
      const edit = await t.app.inject({
        method: 'PUT',
        url: '/api/UpdateProductDetails',
        headers: admin,
        payload: {
          productID: cake.id,
          title: cake.title,
          description: '<p>A cake.</p>',
          price: 649,
          variations: [
            { VariationName: 'Weight', VariationType: '1 kg', Price: 1249 },
            { VariationName: 'Weight', VariationType: '3 kg', Price: 3299 },
          ],
        },
      });
      expect(edit.statusCode).toBe(200);
      const updated = edit.json().data as Product;
      expect(updated.variations.map((v) => [v.variationValue, v.price])).toEqual([
        ['1 kg', 1249],
        ['3 kg', 3299],
      ]);
      expect(updated.variations[0]?.variationID).toBe(oneKg?.id);
      expect(updated.variations.map((v) => v.variationID)).not.toContain(twoKg?.id);

      // An order made with the 1 kg's id at its old price: the new price to confirm, not "gone".
      const shopper = await createUserWithToken(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...shopper.auth, 'idempotency-key': newKey() },
        payload: orderRequest([{ product: cake, variationIndex: 0 }]),
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().data.reason).toBe('repriced');
    });
  });
}
