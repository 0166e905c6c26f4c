import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../api/app.js';
import { type Db, type Dialect, openDatabase } from '../../api/db/database.js';
import { migrateToLatest } from '../../api/db/migrate.js';
import { createUserWithToken, testConfig } from '../support/app.js';
import { type RunningServer, startServer, tempDir } from '../support/e2e.js';
import { type FixtureProduct, insertProduct, orderRequest } from '../support/order-fixtures.js';
import { startProxy } from '../support/proxy.js';
import { registerShopperByMailFolder } from '../support/shopper.js';

/**
 * `npm run bench -- orders`: orders placed per second on SQLite and on
 * PostgreSQL, the cost of a replayed Idempotency-Key, and, measured in the
 * same run on the same app, the catalogue read (`GET /api/ABCGetProducts`)
 * and a bare route that reads the products table with no work of ours: the
 * baselines the order figures are read against. Requests go through `inject`
 * (no sockets), 8 in flight, for a fixed time each.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 1.5);
const CONCURRENCY = 8;
const PG_URL = process.env.TEST_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';

interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
  count: number;
  failures: number;
}

interface Scenario {
  name: string;
  fire: () => Promise<number>;
  times: number[];
  seconds: number;
  failures: number;
}

/** One timed round of a scenario: `CONCURRENCY` requests in flight for `ROUND_SECONDS`. */
async function round(s: Scenario, inFlight = CONCURRENCY): Promise<void> {
  const until = performance.now() + ROUND_SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const status = await s.fire();
        s.times.push(performance.now() - t0);
        if (status !== 200) s.failures++;
      }
    }),
  );
  s.seconds += (performance.now() - started) / 1000;
}

/**
 * The machine is shared, so its speed drifts during a run: rounds of every
 * scenario are interleaved (A B C D, A B C D, ...) so the drift falls on all
 * figures alike and their ratios stay fair.
 */
async function measureInterleaved(scenarios: Scenario[], inFlight = CONCURRENCY): Promise<Figures[]> {
  for (let r = 0; r < ROUNDS; r++) for (const s of scenarios) await round(s, inFlight);
  return scenarios.map((s) => {
    const times = [...s.times].sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
    const f = {
      perSecond: times.length / s.seconds,
      p50: at(0.5),
      p99: at(0.99),
      count: times.length,
      failures: s.failures,
    };
    console.log(
      `  ${s.name.padEnd(34)} ${f.perSecond.toFixed(0).padStart(6)} req/s  p50 ${f.p50.toFixed(2)} ms  p99 ${f.p99.toFixed(2)} ms  (${f.count} requests, ${f.failures} not 200)`,
    );
    return f;
  });
}

const scenario = (name: string, fire: () => Promise<number>): Scenario => ({
  name,
  fire,
  times: [],
  seconds: 0,
  failures: 0,
});

async function openBenchDb(dialect: Dialect): Promise<Db | null> {
  if (dialect === 'sqlite') {
    const db = openDatabase({ databaseUrl: null, sqliteFile: ':memory:' });
    await migrateToLatest(db.kysely);
    return db;
  }
  const schema = `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
    await admin.query(`create schema ${schema}`);
  } catch (err) {
    console.log(`  PostgreSQL SKIPPED: cannot reach ${PG_URL} (${(err as Error).message})`);
    return null;
  } finally {
    await admin.end().catch(() => {});
  }
  const db = openDatabase({ databaseUrl: PG_URL, pgSchema: schema });
  await migrateToLatest(db.kysely);
  return {
    ...db,
    async destroy() {
      await db.destroy();
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

async function benchDialect(dialect: Dialect): Promise<void> {
  console.log(`\n${dialect}:`);
  const db = await openBenchDb(dialect);
  if (!db) return;
  // Throughput of placing orders, not of place-order's rate limit.
  const app: FastifyInstance = await buildApp({
    config: testConfig({ placeOrderLimits: { account: 1_000_000, address: 1_000_000 } }),
    db,
  });
  // The baseline: the products table read and answered with no rule of ours in between.
  app.get('/bench/products', async () => ({
    isSuccess: true,
    data: await app.db
      .selectFrom('products')
      .select(['id', 'title', 'price'])
      .where('deleted_at', 'is', null)
      .execute(),
    sys_message: 'Success',
  }));
  await app.ready();
  try {
    const products: FixtureProduct[] = [];
    for (let i = 0; i < 20; i++) products.push(await insertProduct(app, { price: 300 + i * 25 }));
    const user = await createUserWithToken(app);
    const lines = [
      { product: products[3] as FixtureProduct, quantity: 2 },
      { product: products[11] as FixtureProduct },
    ];
    const body = orderRequest(lines);
    const place = (key: string) =>
      app
        .inject({
          method: 'POST',
          url: '/api/place-order',
          headers: { ...user.auth, 'idempotency-key': key },
          payload: body,
        })
        .then((r) => r.statusCode);

    const catalogueOk = (await app.inject({ method: 'GET', url: '/api/ABCGetProducts' })).statusCode === 200;
    if (!catalogueOk)
      console.log('  GET /api/ABCGetProducts did not answer 200: only the bare read is the baseline');
    const replayKey = randomUUID();
    await place(replayKey);
    const read = (url: string) => () => app.inject({ method: 'GET', url }).then((r) => r.statusCode);
    const [bare, catalogueFigures, orders, replays] = await measureInterleaved([
      scenario('baseline: bare products read', read('/bench/products')),
      scenario(
        'baseline: GET /api/ABCGetProducts',
        catalogueOk ? read('/api/ABCGetProducts') : read('/bench/products'),
      ),
      scenario('place-order, new key each', () => place(randomUUID())),
      scenario('place-order, replayed key', () => place(replayKey)),
    ]);
    if (!bare || !catalogueFigures || !orders || !replays) throw new Error('a scenario did not run');
    const catalogue = catalogueOk ? catalogueFigures : null;
    const base = catalogue ?? bare;
    console.log(
      `  => ${dialect}: ${orders.perSecond.toFixed(0)} orders/s = ${((orders.perSecond / base.perSecond) * 100).toFixed(0)}% of the catalogue read` +
        ` (${base.perSecond.toFixed(0)}/s) and ${((orders.perSecond / bare.perSecond) * 100).toFixed(0)}% of the bare read;` +
        ` a replayed key costs ${replays.p50.toFixed(2)} ms p50 (${(replays.perSecond / orders.perSecond).toFixed(1)}x the rate of new orders)`,
    );
    const placed = await app.db
      .selectFrom('orders')
      .select(app.db.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    console.log(
      `  check: ${Number(placed.n)} orders in the database for ${orders.count - orders.failures + 1} placed answers`,
    );
  } finally {
    await app.close();
    await db.destroy();
  }
}

/**
 * Real server processes on one PostgreSQL database (README "Running several processes"): orders
 * per second through a round-robin proxy to 1, 2 and 4 of them, over HTTP, beside one process
 * asked directly (the single-process figure, without the proxy's hop). The same four processes
 * serve every figure, and the rounds are interleaved. On 2 cores the point is that the rate does
 * not fall with more processes, and that nothing is lost or placed twice under that load.
 */
async function benchProcesses(): Promise<void> {
  console.log('\nseveral processes on one PostgreSQL database (HTTP, 16 in flight):');
  const database = `bench_mp_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
    await admin.query(`create database ${database}`);
  } catch (err) {
    console.log(`  SKIPPED: cannot create a database at ${PG_URL} (${(err as Error).message})`);
    await admin.end().catch(() => {});
    return;
  }
  const url = new URL(PG_URL);
  url.pathname = `/${database}`;
  const work = tempDir('bench-processes');
  let servers: RunningServer[] = [];
  const proxies: Awaited<ReturnType<typeof startProxy>>[] = [];
  try {
    // One at a time: the first seeds the demo catalogue, the others find it.
    for (let i = 0; i < 4; i++) {
      servers.push(
        await startServer({
          webDir: `${work}/no-web`,
          env: { DATABASE_URL: url.toString(), TRUST_PROXY: '1', PLACE_ORDER_LIMITS: '1000000/1000000' },
        }),
      );
    }
    const shopper = await registerShopperByMailFolder(
      servers[0] as RunningServer,
      `bench-${Date.now()}@example.test`,
    );
    const list = (await (await fetch(`${servers[0]?.url}/api/ABCGetProducts`)).json()) as {
      data: { productID: number; title: string; price: number; variations: unknown[]; photoCake: boolean }[];
    };
    // A photo cake is refused without its photo (issue 26): plain products only.
    const products = list.data
      .filter((p) => p.variations.length === 0 && !p.photoCake)
      .slice(0, 2)
      .map((p) => ({ id: p.productID, title: p.title, price: p.price, variations: [] }));
    const body = JSON.stringify(
      orderRequest(
        [{ product: products[0] as FixtureProduct, quantity: 2 }, { product: products[1] as FixtureProduct }],
        {
          CustomerEmail: shopper.email,
        },
      ),
    );
    const placeAt = (base: string) => () =>
      fetch(`${base}/api/place-order`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${shopper.token}`,
          'idempotency-key': randomUUID(),
        },
        body,
      }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      });
    for (const n of [1, 2, 4]) proxies.push(await startProxy(servers.slice(0, n).map((s) => s.url)));
    const scenarios = [
      scenario('one process, asked directly', placeAt(servers[0]?.url ?? '')),
      ...[1, 2, 4].map((n, i) =>
        scenario(`proxy to ${n} process${n > 1 ? 'es' : ''}`, placeAt(proxies[i]?.url ?? '')),
      ),
    ];
    // One unmeasured round each first: every process's code is warm (JIT) before it is timed.
    let warmed = 0;
    for (const s of scenarios) {
      const warm = { ...s, times: [], seconds: 0, failures: 0 };
      await round(warm, 16);
      warmed += warm.times.length - warm.failures;
    }
    const figures = await measureInterleaved(scenarios, 16);
    const counter = new pg.Client({ connectionString: url.toString() });
    await counter.connect();
    const placed = Number((await counter.query('select count(*) from orders')).rows[0]?.count);
    await counter.end();
    const answered = figures.reduce((sum, f) => sum + f.count - f.failures, 0) + warmed;
    const [direct, one, two, four] = figures;
    console.log(
      `  => through the proxy: ${one?.perSecond.toFixed(0)} orders/s with 1 process, ${two?.perSecond.toFixed(0)} with 2, ${four?.perSecond.toFixed(0)} with 4` +
        ` (one process asked directly: ${direct?.perSecond.toFixed(0)}/s)`,
    );
    console.log(
      `  check: ${placed} orders in the database for ${answered} answered 200 (nothing lost, nothing doubled: equal)`,
    );
  } finally {
    for (const p of proxies) await p.close();
    await Promise.all(servers.map((s) => s.stop()));
    servers = [];
    await admin.query(`drop database if exists ${database} with (force)`).catch(() => {});
    await admin.end().catch(() => {});
  }
}

export async function run(): Promise<void> {
  console.log(
    `orders bench: ${ROUNDS} interleaved rounds of ${ROUND_SECONDS} s per figure, ${CONCURRENCY} requests in flight, through inject`,
  );
  await benchDialect('sqlite');
  await benchDialect('postgres');
  await benchProcesses();
}
