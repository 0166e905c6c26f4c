import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indiaDayStart } from '../../domain/india-time.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

type Auth = { authorization: string };
const DAY = 24 * 60 * 60 * 1000;

async function png(color: string): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: color } })
    .png()
    .toBuffer();
}

function multipart(parts: { name: string; value: string | Buffer; filename?: string }[]) {
  const boundary = `----admin${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head = p.filename
      ? `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: image/png\r\n\r\n`
      : `Content-Disposition: form-data; name="${p.name}"\r\n\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\n${head}`), Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), 'content-type': `multipart/form-data; boundary=${boundary}` };
}

for (const dialect of DIALECTS) {
  describe(`the admin API on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let shopper: { id: number; email: string; auth: Auth };
    let cake: FixtureProduct;
    let roses: FixtureProduct;

    beforeAll(async () => {
      t = await makeTestApp(dialect);
      admin = (await createUserWithToken(t.app, { role: '1', email: `owner-${dialect}@example.test` })).auth;
      shopper = await createUserWithToken(t.app, { phone: '9812345678' });
      cake = await insertProduct(t.app, { title: 'Truffle Cake 50%_off', price: 800 });
      roses = await insertProduct(t.app, { title: 'Red Roses', price: 300 });
    });
    afterAll(async () => t.close());

    const get = (url: string, auth: Auth = admin) => t.app.inject({ method: 'GET', url, headers: auth });
    async function place(lines: { product: FixtureProduct; quantity?: number }[]): Promise<number> {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...shopper.auth, 'idempotency-key': newKey() },
        payload: orderRequest(lines, { CustomerEmail: shopper.email, CustomerPhone: '9812345678' }),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.orderID;
    }
    const backdate = (id: number, at: number) =>
      t.app.db.updateTable('orders').set({ created_at: at }).where('id', '=', id).execute();

    it('is for admins only: a shopper gets 403, no token 401, on every admin endpoint', async () => {
      const urls = [
        ['GET', '/api/admin/dashboard'],
        ['GET', '/api/admin/products'],
        ['GET', '/api/admin/orders'],
        ['GET', '/api/admin/orders/1'],
        ['GET', '/api/admin/notifications'],
        ['PUT', '/api/admin/orders/1/status'],
        ['PUT', '/api/admin/categories/1'],
        ['POST', '/api/admin/products/delete'],
        ['PUT', '/api/admin/products/1/images'],
      ] as const;
      for (const [method, url] of urls) {
        const asShopper = await t.app.inject({ method, url, headers: shopper.auth, payload: {} });
        expect(asShopper.statusCode, `${method} ${url}`).toBe(403);
        expect(asShopper.json().isSuccess).toBe(false);
        expect((await t.app.inject({ method, url, payload: {} })).statusCode, `${method} ${url}`).toBe(401);
      }
    });

    it('computes the dashboard in SQL: today, 7 and 30 days, waiting, counts, series, latest, best sellers', async () => {
      const now = Date.now();
      const today = indiaDayStart(now);
      const a = await place([{ product: cake, quantity: 2 }]); // 1600 + 150 today
      const b = await place([{ product: roses }]); // 300 + 150, 3 days ago
      const c = await place([{ product: roses, quantity: 3 }]); // 900 + 150, 20 days ago
      const d = await place([{ product: cake }]); // cancelled: counts nowhere
      const e = await place([{ product: roses }]); // 40 days ago: outside every window
      await backdate(b, today - 3 * DAY + 1000);
      await backdate(c, today - 20 * DAY + 1000);
      await backdate(e, today - 40 * DAY);
      expect(
        (
          await t.app.inject({
            method: 'PUT',
            url: `/api/admin/orders/${d}/status`,
            headers: admin,
            payload: { status: 'cancelled' },
          })
        ).statusCode,
      ).toBe(200);
      expect(
        (
          await t.app.inject({
            method: 'PUT',
            url: `/api/admin/orders/${a}/status`,
            headers: admin,
            payload: { status: 'confirmed' },
          })
        ).statusCode,
      ).toBe(200);

      const res = await get('/api/admin/dashboard');
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({
        ordersToday: 1,
        revenueToday: 1750,
        orders7: 2,
        revenue7: 1750 + 450,
        orders30: 3,
        revenue30: 1750 + 450 + 1050,
        waiting: { placed: 3, paid: 0, confirmed: 1, 'out for delivery': 0 },
        products: 2,
        categories: 0,
      });
      expect(data.series).toHaveLength(14);
      expect(data.series.at(-1)).toMatchObject({ revenue: 1750, orders: 1 });
      expect(data.series.at(-4)).toMatchObject({ revenue: 450, orders: 1 });
      expect(data.series.reduce((s: number, x: { revenue: number }) => s + x.revenue, 0)).toBe(2200);
      expect(data.latest[0].orderID).toBe(d);
      expect(data.bestSellers[0]).toMatchObject({ productID: roses.id, quantity: 4, revenue: 1200 });
      expect(data.bestSellers[1]).toMatchObject({ productID: cake.id, quantity: 2, revenue: 1600 });
    });

    it('pages, searches (literally), filters and sorts products; bad queries are 400', async () => {
      const category = await t.app.inject({
        method: 'POST',
        url: '/api/AddCategory',
        headers: admin,
        payload: { CategoryName: 'Flowers' },
      });
      const categoryID = category.json().data.categoryID;
      await t.app.db
        .insertInto('product_categories')
        .values({ product_id: roses.id, category_id: categoryID })
        .execute();
      for (let i = 0; i < 23; i++)
        await insertProduct(t.app, { title: `Bulk Item ${String(i).padStart(2, '0')}`, price: 100 + i });

      const first = (await get('/api/admin/products?pageSize=10')).json().data;
      expect(first.total).toBe(25);
      expect(first.items).toHaveLength(10);
      const third = (await get('/api/admin/products?pageSize=10&page=3')).json().data;
      expect(third.items).toHaveLength(5);
      expect(third.items.at(-1).productID).toBe(cake.id);

      const pct = (await get('/api/admin/products?q=50%25_')).json().data;
      expect(pct.items.map((p: { productID: number }) => p.productID)).toEqual([cake.id]);
      expect((await get('/api/admin/products?q=0%25')).json().data.total).toBe(1);
      expect((await get('/api/admin/products?q=truffle')).json().data.total).toBe(1);
      const byId = (await get(`/api/admin/products?q=${roses.id}&pageSize=100`)).json().data.items;
      expect(byId.map((p: { productID: number }) => p.productID)).toContain(roses.id);

      const inCategory = (await get(`/api/admin/products?categoryId=${categoryID}`)).json().data;
      expect(inCategory.items).toEqual([
        expect.objectContaining({
          productID: roses.id,
          categories: [{ categoryID, categoryName: 'Flowers' }],
          description: 'A cake.',
        }),
      ]);
      const cheap = (await get('/api/admin/products?sort=price-asc&pageSize=1')).json().data.items[0];
      expect(cheap.price).toBe(100);
      const dear = (await get('/api/admin/products?sort=price-desc&pageSize=1')).json().data.items[0];
      expect(dear.productID).toBe(cake.id);
      const byTitle = (await get('/api/admin/products?sort=title&pageSize=1')).json().data.items[0];
      expect(byTitle.title).toBe('Bulk Item 00');
      const none = await get('/api/admin/products?q=nothing-like-this');
      expect(none.json()).toMatchObject({
        isSuccess: true,
        data: { total: 0, items: [] },
        sys_message: 'No products found',
      });

      for (const bad of [
        'page=0',
        'page=abc',
        'pageSize=501',
        'sort=cheapest',
        'categoryId=-1',
        `q=${'x'.repeat(101)}`,
      ]) {
        const res = await get(`/api/admin/products?${bad}`);
        expect(res.statusCode, bad).toBe(400);
        expect(res.json().isSuccess).toBe(false);
      }
    });

    it('deletes products in bulk, all or none', async () => {
      const x = await insertProduct(t.app, { title: 'Bulk X' });
      const y = await insertProduct(t.app, { title: 'Bulk Y' });
      const del = (productIDs: unknown) =>
        t.app.inject({
          method: 'POST',
          url: '/api/admin/products/delete',
          headers: admin,
          payload: { productIDs },
        });
      const refused = await del([x.id, 999_999]);
      expect(refused.statusCode).toBe(404);
      expect((await get(`/api/GetProductById/${x.id}`)).statusCode).toBe(200);
      expect((await del([])).statusCode).toBe(400);
      expect((await del('1,2')).statusCode).toBe(400);
      const done = await del([x.id, y.id, x.id]);
      expect(done.statusCode).toBe(200);
      expect(done.json().data.deleted).toEqual([x.id, y.id]);
      expect((await get(`/api/GetProductById/${y.id}`)).statusCode).toBe(404);
      const feed = (await get('/api/sync/catalogue?since=1')).json().data;
      expect(feed.deletedProductIds).toEqual(expect.arrayContaining([x.id, y.id]));
    });

    it('renames a category, keeping names unique; bad names are 400, unknown 404', async () => {
      const add = (name: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/AddCategory',
          headers: admin,
          payload: { CategoryName: name },
        });
      const cakes = (await add('Cakes R')).json().data.categoryID;
      await add('Plants R');
      const rename = (id: number, CategoryName: unknown) =>
        t.app.inject({
          method: 'PUT',
          url: `/api/admin/categories/${id}`,
          headers: admin,
          payload: { CategoryName },
        });
      expect((await rename(cakes, 'plants r')).statusCode).toBe(409);
      expect((await rename(cakes, '  ')).json().sys_message).toBe('Please enter a category name.');
      expect((await rename(999_999, 'Anything')).statusCode).toBe(404);
      expect((await rename(cakes, 'CAKES r')).statusCode).toBe(200);
      const ok = await rename(cakes, 'Celebration Cakes');
      expect(ok.json().data).toEqual({ categoryID: cakes, categoryName: 'Celebration Cakes' });
      const list = (await get('/api/GetCategories')).json().data;
      expect(list).toContainEqual({ categoryID: cakes, categoryName: 'Celebration Cakes' });
    });

    it('lists orders filtered by status, date and search; the order page has lines and a timeline with notes', async () => {
      const id = await place([{ product: cake }, { product: roses, quantity: 2 }]);
      const moved = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/orders/${id}/status`,
        headers: admin,
        payload: { status: 'confirmed', note: 'Called the customer' },
      });
      expect(moved.statusCode).toBe(200);
      expect(moved.json().data.change).toMatchObject({
        from: 'placed',
        to: 'confirmed',
        note: 'Called the customer',
        by: `owner-${dialect}@example.test`,
      });
      expect(
        (
          await t.app.inject({
            method: 'PUT',
            url: `/api/admin/orders/${id}/status`,
            headers: admin,
            payload: { status: 'delivered' },
          })
        ).statusCode,
      ).toBe(409);
      expect(
        (
          await t.app.inject({
            method: 'PUT',
            url: `/api/admin/orders/${id}/status`,
            headers: admin,
            payload: { status: 'out for delivery', note: 'x'.repeat(501) },
          })
        ).statusCode,
      ).toBe(400);
      // The spec-era endpoint writes the timeline too.
      expect(
        (
          await t.app.inject({
            method: 'PUT',
            url: `/api/orders/${id}/status`,
            headers: admin,
            payload: { status: 'out for delivery' },
          })
        ).statusCode,
      ).toBe(200);

      const detail = (await get(`/api/admin/orders/${id}`)).json().data;
      expect(detail.lines).toHaveLength(2);
      expect(detail.lines[1]).toMatchObject({
        productID: roses.id,
        quantity: 2,
        unitPrice: 300,
        lineTotal: 600,
      });
      expect(detail).toMatchObject({
        subtotal: 1400,
        deliveryCharge: 150,
        totalAmount: 1550,
        paymentMethod: 'Cash on Delivery',
        status: 'out for delivery',
        nextStatuses: ['delivered'],
      });
      expect(detail.timeline.map((s: { to: string }) => s.to)).toEqual([
        'placed',
        'confirmed',
        'out for delivery',
      ]);
      expect(detail.timeline[0].by).toBe(shopper.email);
      expect(detail.timeline[1].note).toBe('Called the customer');
      expect((await get('/api/admin/orders/999999')).statusCode).toBe(404);
      expect((await get('/api/admin/orders/abc')).statusCode).toBe(400);

      const out = (await get('/api/admin/orders?status=out%20for%20delivery')).json().data;
      expect(out.items.map((o: { orderID: number }) => o.orderID)).toEqual([id]);
      expect((await get(`/api/admin/orders?q=${id}`)).json().data.items[0].orderID).toBe(id);
      expect((await get(`/api/admin/orders?q=%23${id}`)).json().data.items[0].orderID).toBe(id);
      expect((await get('/api/admin/orders?q=98123')).json().data.total).toBeGreaterThan(0);
      expect(
        (await get(`/api/admin/orders?q=${encodeURIComponent(shopper.email.toUpperCase())}`)).json().data
          .total,
      ).toBeGreaterThan(0);
      expect((await get('/api/admin/orders?q=nobody%40nowhere.test')).json()).toMatchObject({
        data: { total: 0 },
        sys_message: 'No orders found.',
      });
      const old = (await get('/api/admin/orders?from=2000-01-01&to=2000-01-31')).json().data;
      expect(old.total).toBe(0);
      const all = (await get('/api/admin/orders?pageSize=500')).json().data;
      const from40 = new Date(Date.now() - 45 * DAY).toISOString().slice(0, 10);
      const to25 = new Date(Date.now() - 25 * DAY).toISOString().slice(0, 10);
      const windowed = (await get(`/api/admin/orders?from=${from40}&to=${to25}`)).json().data;
      expect(windowed.total).toBe(1);
      expect(windowed.total).toBeLessThan(all.total);
      for (const bad of [
        'status=shipped',
        'from=2026-02-30',
        'from=2026-05-02&to=2026-05-01',
        'page=-1',
        'to=yesterday',
      ]) {
        expect((await get(`/api/admin/orders?${bad}`)).statusCode, bad).toBe(400);
      }
    });

    it('tells the bell about orders placed since a time', async () => {
      const before = Date.now();
      const latest = (await get(`/api/admin/notifications?since=${before}`)).json().data;
      expect(latest.count).toBe(0);
      const id = await place([{ product: roses }]);
      const after = (await get(`/api/admin/notifications?since=${before - 1}`)).json().data;
      expect(after.count).toBe(1);
      expect(after.orders[0]).toMatchObject({ orderID: id, totalAmount: 450 });
      expect(after.now).toBeGreaterThanOrEqual(before);
      expect((await get('/api/admin/notifications?since=yesterday')).statusCode).toBe(400);
    });

    it("replaces a product's images: keeps, reorders, removes and adds; refuses others' images", async () => {
      const add = multipart([
        {
          name: 'CategoryID',
          value: String(
            (
              await t.app.inject({
                method: 'POST',
                url: '/api/AddCategory',
                headers: admin,
                payload: { CategoryName: 'Img Cat' },
              })
            ).json().data.categoryID,
          ),
        },
        { name: 'Title', value: 'Picture Cake' },
        { name: 'Description', value: '<p>Nice</p>' },
        { name: 'LabelHeading', value: 'H' },
        { name: 'LabelDescription', value: 'D' },
        { name: 'Price', value: '500' },
        { name: 'images', value: await png('#ff0000'), filename: 'a.png' },
        { name: 'images', value: await png('#00ff00'), filename: 'b.png' },
      ]);
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/AddProductForDash',
        headers: { ...admin, 'content-type': add['content-type'] },
        payload: add.payload,
      });
      expect(created.statusCode, created.body).toBe(201);
      const product = created.json().data;
      const [a, b] = product.images.map((i: { src: string }) => i.src);
      const put = async (order: unknown, files: Buffer[] = []) => {
        const body = multipart([
          { name: 'order', value: JSON.stringify(order) },
          ...files.map((f, i) => ({ name: 'images', value: f, filename: `n${i}.png` })),
        ]);
        return t.app.inject({
          method: 'PUT',
          url: `/api/admin/products/${product.productID}/images`,
          headers: { ...admin, 'content-type': body['content-type'] },
          payload: body.payload,
        });
      };
      const swapped = await put([{ src: b }, { file: 0 }], [await png('#0000ff')]);
      expect(swapped.statusCode, swapped.body).toBe(200);
      const images = swapped.json().data.images.map((i: { src: string }) => i.src);
      expect(images).toHaveLength(2);
      expect(images[0]).toBe(b);
      expect(images[1]).not.toBe(a);
      expect(swapped.json().data.imagePath.split(',')[0]).toBe(b);

      expect((await put([])).statusCode).toBe(400);
      expect((await put([{ src: '/media/p-someone-else-640.webp' }])).statusCode).toBe(400);
      expect((await put([{ file: 0 }])).statusCode).toBe(400);
      expect((await put([{ src: 'javascript:alert(1)' }])).statusCode).toBe(400);
      const notJson = multipart([{ name: 'order', value: '[{' }]);
      expect(
        (
          await t.app.inject({
            method: 'PUT',
            url: `/api/admin/products/${product.productID}/images`,
            headers: { ...admin, 'content-type': notJson['content-type'] },
            payload: notJson.payload,
          })
        ).statusCode,
      ).toBe(400);
      expect((await put([{ src: b }], [Buffer.from('not an image')])).statusCode).toBe(400);
      const json = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/products/${product.productID}/images`,
        headers: admin,
        payload: { order: [] },
      });
      expect(json.statusCode).toBe(400);
      const after = (await get(`/api/GetProductById/${product.productID}`)).json().data;
      expect(after.images.map((i: { src: string }) => i.src)).toEqual(images);
    });
  });
}
