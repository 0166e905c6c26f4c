import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.js';
import { updateProduct } from '../../api/catalogue/catalogue.service.js';
import { loadConfig } from '../../api/config.js';
import { openDatabase } from '../../api/db/database.js';
import { migrateToLatest } from '../../api/db/migrate.js';
import { FolderMediaStore, mediaDirOf } from '../../api/images/media-store.js';
import { seedDemoCatalogue } from '../../api/seed/demo.js';
import { seedSyntheticProducts } from '../../api/seed/synthetic.js';
import type { CatalogueDelta, Product } from '../../domain/catalogue.js';

/**
 * `npm run bench -- catalogue`: requests per second of the catalogue reads and
 * of an unchanged delta feed (304), next to a bare Fastify hello-world
 * measured in the same run on the same machine, as ratios. Then the size of
 * the feed: a full snapshot of the demo catalogue and of 10,000 products, and
 * a delta after one product changes. SQLite in a file, as `npm start` runs it.
 *
 * Servers and load generator share this process (and the machine's cores),
 * for the baseline and the shop alike, so the ratios compare like with like.
 */
const HELLO_PORT = 4101;
const SHOP_PORT = 4102;
/** Seconds per round; each case alternates baseline and shop rounds, so load from elsewhere hits both alike. */
const ROUND_SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = 3;

async function rps(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ rps: number; statuses: string }> {
  const result = await autocannon({ url, connections: 10, duration: ROUND_SECONDS, headers });
  const statuses = Object.entries({
    '2xx': result['2xx'],
    '3xx': result['3xx'],
    '4xx': result['4xx'],
    '5xx': result['5xx'],
  })
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k}=${n}`)
    .join(' ');
  if (result.errors || result.non2xx !== result['3xx']) {
    throw new Error(`${url}: ${result.errors} errors, statuses ${statuses}`);
  }
  return { rps: result.requests.average, statuses };
}

async function feedBytes(
  base: string,
  since?: string,
): Promise<{ raw: number; gzip: number; pages: number; products: number }> {
  let cursor = since;
  let raw = 0;
  let gzip = 0;
  let pages = 0;
  let products = 0;
  for (;;) {
    const q = new URLSearchParams({ limit: '1000', ...(cursor ? { since: cursor } : {}) });
    const res = await fetch(`${base}/api/sync/catalogue?${q}`, {
      headers: { 'accept-encoding': 'identity' },
    });
    const text = await res.text();
    raw += Buffer.byteLength(text);
    gzip += gzipSync(text).length;
    pages += 1;
    const delta = (JSON.parse(text) as { data: CatalogueDelta }).data;
    products += delta.products.length;
    cursor = delta.cursor;
    if (!delta.hasMore) return { raw, gzip, pages, products };
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-catalogue-'));
  const hello: FastifyInstance = Fastify({ logger: false });
  hello.get('/', async () => ({ hello: 'world' }));
  await hello.listen({ port: HELLO_PORT, host: '127.0.0.1' });

  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    SEED_DEMO: 'true',
    WEB_DIR: path.join(dataDir, 'no-web'),
  });
  const db = openDatabase({ databaseUrl: null, sqliteFile: path.join(dataDir, 'shop.db') });
  await migrateToLatest(db.kysely);
  const seeded = Date.now();
  const demo = await seedDemoCatalogue(db.kysely, 'sqlite', new FolderMediaStore(mediaDirOf(dataDir)));
  console.log(`demo catalogue: ${demo.products} products seeded in ${Date.now() - seeded} ms`);
  const app = await buildApp({ config, db, closeDbWithApp: true, logger: false });
  await app.listen({ port: SHOP_PORT, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${SHOP_PORT}`;

  try {
    const category13 = (await (await fetch(`${base}/api/ABCGetProducts?categoryId=13`)).json()) as {
      data: Product[];
    };
    const feed = await fetch(`${base}/api/sync/catalogue`);
    const etag = feed.headers.get('etag') ?? '';
    const check = await fetch(`${base}/api/sync/catalogue`, { headers: { 'if-none-match': etag } });
    if (check.status !== 304) throw new Error(`unchanged feed answered ${check.status}, not 304`);
    console.log(
      `category 13 has ${category13.data.length} products; unchanged feed with If-None-Match -> ${check.status}`,
    );

    const cases: [string, string, Record<string, string>][] = [
      ['GET /api/ABCGetProducts (86 products)', '/api/ABCGetProducts', {}],
      ['GET /api/ABCGetProducts?categoryId=13', '/api/ABCGetProducts?categoryId=13', {}],
      ['GET /api/sync/catalogue, unchanged (304)', '/api/sync/catalogue', { 'if-none-match': etag }],
    ];
    // Warm both servers (JIT, SQLite page cache) before anything is counted.
    await rps(`http://127.0.0.1:${HELLO_PORT}/`);
    await rps(`${base}/api/ABCGetProducts?categoryId=13`);
    for (const [name, url, headers] of cases) {
      let helloTotal = 0;
      let shopTotal = 0;
      let statuses = '';
      for (let round = 0; round < ROUNDS; round++) {
        helloTotal += (await rps(`http://127.0.0.1:${HELLO_PORT}/`)).rps;
        const r = await rps(`${base}${url}`, headers);
        shopTotal += r.rps;
        statuses = r.statuses;
      }
      const ratio = shopTotal / helloTotal;
      const goal = url.includes('categoryId') ? ` (goal >= 0.17x: ${ratio >= 0.17 ? 'met' : 'NOT met'})` : '';
      console.log(
        `${name}: ${(shopTotal / ROUNDS).toFixed(0)} req/s vs hello-world ${(helloTotal / ROUNDS).toFixed(0)} req/s = ${ratio.toFixed(3)}x [last round ${statuses}]${goal}`,
      );
    }

    const full = await feedBytes(base);
    console.log(
      `full feed, demo catalogue: ${full.products} products, ${full.pages} page(s), ${kb(full.raw)} JSON, ${kb(full.gzip)} gzip`,
    );
    const cursor = ((await (await fetch(`${base}/api/sync/catalogue`)).json()) as { data: CatalogueDelta })
      .data.cursor;
    const one = ((await (await fetch(`${base}/api/GetProductById/5`)).json()) as { data: Product }).data;
    // One product changes, as an admin would change it (same repository path, no HTTP token needed here).
    await db.kysely.transaction().execute((trx) =>
      updateProduct(trx, {
        productID: one.productID,
        title: one.title,
        description: one.description,
        price: one.price + 10,
      }),
    );
    const delta = await feedBytes(base, cursor);
    console.log(
      `delta after one product changed: ${delta.products} product(s), ${delta.raw} B JSON, ${delta.gzip} B gzip`,
    );

    const started = Date.now();
    await seedSyntheticProducts(db.kysely, 'sqlite', 10_000 - demo.products);
    console.log(`synthetic products added in ${Date.now() - started} ms`);
    const big = await feedBytes(base);
    console.log(
      `full feed, ${big.products} products: ${big.pages} page(s), ${kb(big.raw)} JSON, ${kb(big.gzip)} gzip`,
    );
  } finally {
    await app.close();
    await hello.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
