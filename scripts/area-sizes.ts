/**
 * `npx tsx scripts/area-sizes.ts [count...]`: what a shop with many delivery areas sends, each
 * area its own city (the worst case for every text that names cities): the home page's HTML, its
 * description and JSON-LD, the public list of areas and the catalogue feed's full snapshot with
 * the areas' share of it. The areas are written straight into a fresh SQLite database in memory,
 * as a shop whose areas were added before any limit would hold them; the pages and the API read
 * them as they read any shop's. Default counts: the spec's 39 pincodes, 2,000 and 10,000.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildApp } from '../api/app.js';
import { loadConfig } from '../api/config.js';
import { openDatabase } from '../api/db/database.js';
import { migrateToLatest } from '../api/db/migrate.js';
import { PAGE_SHELL, townName } from '../tests/support/page-shell.js';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
/** Its size as sent to a browser that takes gzip (the app compresses answers). */
const gz = (body: string) => kb(gzipSync(body).length);

async function measure(count: number): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'area-sizes-'));
  writeFileSync(path.join(dir, 'index.html'), PAGE_SHELL);
  const db = openDatabase({ databaseUrl: null, sqliteFile: ':memory:' });
  await migrateToLatest(db.kysely);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dir,
    WEB_DIR: dir,
    SEED_DEMO: 'false',
    JWT_SECRET: 'area-sizes-area-sizes-area-sizes-0123456789',
  });
  const app = await buildApp({ config, db, closeDbWithApp: true });
  try {
    await app.ready();
    // The migration's 39 pincodes stay; the rest are new pincodes, each its own city.
    const have = (await db.kysely.selectFrom('delivery_areas').select('pincode').execute()).length;
    const rows = Array.from({ length: Math.max(0, count - have) }, (_, i) => ({
      pincode: String(500_000 + i),
      city: townName(i),
      state: ['Punjab', 'Haryana', 'Himachal Pradesh'][i % 3] ?? 'Punjab',
      charge: 100 + (i % 400),
      slot_ids: null,
      same_day: 1,
      version: 1,
      updated_at: Date.now(),
      deleted_at: null,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await db.kysely
        .insertInto('delivery_areas')
        .values(rows.slice(i, i + 500))
        .execute();
    await db.kysely.updateTable('catalogue_state').set({ version: 2 }).where('id', '=', 1).execute();

    const home = await app.inject({ method: 'GET', url: '/', headers: { host: 'localhost' } });
    const html = home.body;
    const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? '';
    const jsonLd = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
      (m) => m[1]?.length ?? 0,
    );
    const list = await app.inject({ method: 'GET', url: '/api/delivery-areas' });
    const feed = await app.inject({ method: 'GET', url: '/api/sync/catalogue' });
    const areas = JSON.stringify(feed.json().data.areas ?? []).length;
    const live = list.json().data.length as number;
    console.log(
      [
        `${live} areas (${count} asked):`,
        `GET / ${kb(Buffer.byteLength(html))} (gzip ${gz(html)})`,
        `description ${kb(description.length)} x${html.split(description).length - 1}`,
        `JSON-LD ${jsonLd.map(kb).join(' + ')}`,
        `GET /api/delivery-areas ${kb(Buffer.byteLength(list.body))} (gzip ${gz(list.body)})`,
        `feed snapshot ${kb(Buffer.byteLength(feed.body))} (gzip ${gz(feed.body)}; areas ${kb(areas)})`,
      ].join(' | '),
    );
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const counts = process.argv.slice(2).map(Number);
for (const count of counts.length ? counts : [39, 2000, 10_000]) await measure(count);
