import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../api/db/database.js';
import { migrateToLatest } from '../../api/db/migrate.js';
import { FolderMediaStore, mediaDirOf } from '../../api/images/media-store.js';
import { seedDemoCatalogue } from '../../api/seed/demo.js';
import { seedSyntheticProducts } from '../../api/seed/synthetic.js';
import type { Product } from '../../domain/catalogue.js';
import { messages } from '../../domain/messages.js';
import { search } from '../../domain/search.js';
import { deviceCounts, deviceProducts, type RunningServer, tempDir } from '../support/e2e.js';
import { openShop, type Shop } from '../support/shop.js';
import { openShopOnPhone } from '../support/shopper.js';

/**
 * A big catalogue at a size CI affords: a first visit to a shop of 2,000 products ends with every
 * product on the device, exactly as the server has it, and searchable with the network cut.
 * (Speed is the catalogue-sync bench's; nothing here is timed.)
 */
const TOTAL = 2000;
let shop: Shop;
let server: RunningServer;
let serverProducts: Product[];

beforeAll(async () => {
  const dataDir = tempDir('big-data');
  const db = openDatabase({ databaseUrl: null, sqliteFile: path.join(dataDir, 'shop.db') });
  await migrateToLatest(db.kysely);
  const demo = await seedDemoCatalogue(db.kysely, 'sqlite', new FolderMediaStore(mediaDirOf(dataDir)));
  await seedSyntheticProducts(db.kysely, 'sqlite', TOTAL - demo.products);
  await db.destroy();
  shop = await openShop({ dataDir });
  server = shop.server;
  serverProducts = [];
  for (let since = ''; ; ) {
    const res = await fetch(`${server.url}/api/sync/catalogue?limit=1000${since ? `&since=${since}` : ''}`);
    const body = (await res.json()) as { data: { cursor: string; hasMore: boolean; products: Product[] } };
    serverProducts.push(...body.data.products);
    if (!body.data.hasMore) break;
    since = body.data.cursor;
  }
}, 240_000);

afterAll(() => shop?.close());

describe('a first visit to a shop of 2,000 products', () => {
  it('ends with every product on the device, as the server has it, and searchable offline', async () => {
    expect(serverProducts).toHaveLength(TOTAL);
    const { context, page } = await openShopOnPhone(shop.browser, server.url);
    try {
      await expect
        .poll(async () => (await deviceCounts(page)).products, { timeout: 120_000, interval: 500 })
        .toBe(TOTAL);
      await expect
        .poll(async () => (await deviceCounts(page)).lastSyncedAt, { timeout: 30_000 })
        .not.toBeNull();
      const device = (await deviceProducts(page)).map((p) => ({
        productID: p.productID,
        price: p.price,
        title: p.title,
      }));
      expect(device).toEqual(
        serverProducts.map((p) => ({ productID: p.productID, price: p.price, title: p.title })),
      );

      await context.setOffline(true);
      const first = serverProducts[0] as Product;
      const last = serverProducts[TOTAL - 1] as Product;
      // Broad queries count the whole catalogue; exact titles find the first and the last product stored.
      for (const q of ['a', 'cake', 'jasmine', first.title, last.title]) {
        const expected = search(serverProducts, q).length;
        await page.goto(`/search?q=${encodeURIComponent(q)}`);
        await page.getByRole('heading', { level: 1, name: messages.searchResultsFor(q) }).waitFor();
        const count = page.locator('p.muted', { hasText: /^\d+ products?$/ }).first();
        await expect
          .poll(async () => ((await count.count()) ? await count.textContent() : ''), { timeout: 30_000 })
          .toBe(expected === 1 ? '1 product' : `${expected} products`);
      }
      await page.goto(`/search?q=${encodeURIComponent(last.title)}`);
      await page
        .getByRole('heading', { level: 3, name: last.title })
        .or(page.getByText(last.title))
        .first()
        .waitFor();
    } finally {
      await context.close();
    }
  }, 300_000);
});
