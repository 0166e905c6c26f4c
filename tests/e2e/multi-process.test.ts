import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import type { PlacedOrder } from '../../domain/orders.js';
import { TEST_DATABASE_URL } from '../support/databases.js';
import { adminToken, type RunningServer, startServer, tempDir } from '../support/e2e.js';
import { type FixtureProduct, newKey, orderRequest } from '../support/order-fixtures.js';
import { type RoundRobinProxy, startProxy } from '../support/proxy.js';
import { registerShopperByMailFolder } from '../support/shopper.js';

/**
 * Several real server processes on one PostgreSQL database (README "Running several
 * processes"): each with its own DATA_DIR, as separate machines would have, Redis for rate limits,
 * and a round-robin proxy in front. Nothing may live in one process's memory or on its disk.
 */
const PROCESSES = 4;
const MIGRATIONS = readdirSync(path.join(process.cwd(), 'api/db/migrations')).filter((f) =>
  /^\d{8}_\d{4}_/.test(f),
).length;

type Answer<T> = { isSuccess: boolean; data: T; sys_message: string };

async function call<T>(
  base: string,
  method: string,
  url: string,
  options: { token?: string; body?: unknown; key?: string } = {},
): Promise<{ status: number; body: Answer<T> }> {
  const res = await fetch(`${base}/api/${url}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.key ? { 'idempotency-key': options.key } : {}),
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Answer<T> };
}

describe.skipIf(!TEST_DATABASE_URL)('several processes on one PostgreSQL database', () => {
  const database = `mp_${Date.now().toString(36)}_${process.pid}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL ?? '' });
  let databaseUrl: string;
  let work: string;
  let servers: RunningServer[] = [];
  let proxy: RoundRobinProxy;
  let shopper: LoginData;
  let products: FixtureProduct[];
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create database ${database}`);
    const url = new URL(TEST_DATABASE_URL ?? '');
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
    work = tempDir('multi-process');
    // 1. Four processes started at once on an empty database.
    const started = Date.now();
    servers = await Promise.all(
      Array.from({ length: PROCESSES }, () =>
        startServer({
          webDir: path.join(work, 'no-web'),
          env: {
            DATABASE_URL: databaseUrl,
            REDIS_URL: 'redis://127.0.0.1:6379',
            TRUST_PROXY: '1',
            // One shopper sends 50 orders in a second: place-order's rate limit is not what this tests.
            PLACE_ORDER_LIMITS: '1000000/1000000',
          },
        }),
      ),
    );
    console.log(`${PROCESSES} processes up on one empty database in ${Date.now() - started} ms`);
    proxy = await startProxy(servers.map((s) => s.url));
  }, 300_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  });

  it('came up together: one demo catalogue, each migration applied once, one set of pictures, one admin', async () => {
    const [{ count: productCount } = { count: '0' }] = await query<{ count: string }>(
      'select count(*) from products',
    );
    expect(Number(productCount)).toBe(86);
    const list = await call<
      { productID: number; title: string; price: number; variations: unknown[]; photoCake: boolean }[]
    >(proxy.url, 'GET', 'ABCGetProducts');
    expect(list.body.data).toHaveLength(86);
    const migrations = await query<{ name: string }>('select name from kysely_migration order by name');
    expect(migrations).toHaveLength(MIGRATIONS);
    const [{ count: pictures } = { count: '0' }] = await query<{ count: string }>(
      'select count(*) from media_files',
    );
    expect(Number(pictures)).toBe(86 * 2);
    const admins = await query<{ email: string }>("select email from users where role = '1'");
    expect(admins).toHaveLength(1);
    // Every process logged its own start-up, and none failed on another's writes.
    for (const s of servers) expect(s.output()).toContain('The shop is open');

    // A photo cake is refused without its photo: plain products only.
    products = list.body.data
      .filter((p) => p.variations.length === 0 && !p.photoCake)
      .slice(0, 3)
      .map((p) => ({ id: p.productID, title: p.title, price: p.price, variations: [] }));
    expect(products).toHaveLength(3);
  });

  it('serves through C and the proxy the images of a product an admin added through B, logged in through A', async () => {
    const [a, b, c] = servers as [RunningServer, RunningServer, RunningServer];
    const token = await adminToken(a);
    const form = new FormData();
    const fields = {
      CategoryID: '13',
      Title: 'Rose Gold Anniversary Cake',
      Description: '<p>Two tiers of chocolate with rose gold leaf.</p>',
      LabelHeading: 'Eggless',
      LabelDescription: 'Baked fresh',
      Price: '1299',
      SizeOrWeight: '1 kg',
    };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    for (const [i, colour] of [
      { r: 190, g: 120, b: 110 },
      { r: 90, g: 50, b: 40 },
    ].entries()) {
      const jpeg = await sharp({ create: { width: 900, height: 700, channels: 3, background: colour } })
        .jpeg()
        .toBuffer();
      form.append('images', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), `cake-${i}.jpg`);
    }
    const added = await fetch(`${b.url}/api/AddProductForDash`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(added.status).toBe(201);
    const product = ((await added.json()) as Answer<{ images: { src: string; thumb: string }[] }>).data;
    expect(product.images).toHaveLength(2);
    for (const image of product.images) {
      for (const url of [image.src, image.thumb]) {
        const fromC = await fetch(`${c.url}${url}`);
        const fromProxy = await fetch(`${proxy.url}${url}`);
        expect(fromC.status, url).toBe(200);
        expect(fromProxy.status, url).toBe(200);
        expect(fromC.headers.get('content-type')).toBe('image/webp');
        expect(fromC.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        const bytes = Buffer.from(await fromC.arrayBuffer());
        expect(Buffer.from(await fromProxy.arrayBuffer()).equals(bytes)).toBe(true);
        expect((await sharp(bytes).metadata()).format).toBe('webp');
      }
    }
    // Nothing landed on B's own disk, which the other processes could not read.
    const mediaDir = path.join(b.dataDir, 'media');
    expect(existsSync(mediaDir) ? readdirSync(mediaDir) : []).toEqual([]);
  });

  it("accepts on B a shopper's token issued by A", async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    shopper = await registerShopperByMailFolder(a, `multi-${Date.now()}@example.test`);
    const profile = await call<{ email: string }>(b.url, 'GET', 'GetUserProfile', { token: shopper.token });
    expect(profile.status).toBe(200);
    expect(profile.body.data.email).toBe(shopper.email);
  });

  it('places one order for one Idempotency-Key sent to A and to B at the same moment', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const key = newKey();
    const body = orderRequest([{ product: products[0] as FixtureProduct, quantity: 2 }], {
      CustomerEmail: shopper.email,
    });
    const answers = await Promise.all(
      [a, b, a, b].map((s) =>
        call<PlacedOrder>(s.url, 'POST', 'place-order', { token: shopper.token, body, key }),
      ),
    );
    const placed = answers.filter((r) => r.status === 200);
    // The one that got there second either waits for the first and replays its answer, or is told
    // the same order is still being placed (409, retried by the device with the same key).
    for (const r of answers) expect([200, 409], r.body.sys_message).toContain(r.status);
    expect(placed.length).toBeGreaterThan(0);
    expect(new Set(placed.map((r) => r.body.data.orderID)).size).toBe(1);
    const retried = await call<PlacedOrder>(b.url, 'POST', 'place-order', {
      token: shopper.token,
      body,
      key,
    });
    expect(retried.status).toBe(200);
    expect(retried.body.data.orderID).toBe(placed[0]?.body.data.orderID);
    const rows = await query<{ count: string }>('select count(*) from orders where user_id = $1', [
      shopper.veryOtpLoginID,
    ]);
    expect(Number(rows[0]?.count)).toBe(1);
  });

  it('counts failed logins for one email across processes', async () => {
    const email = `target-${Date.now()}@example.test`;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const s = servers[i % PROCESSES] as RunningServer;
      statuses.push(
        (await call(s.url, 'POST', 'LoginCustomer', { body: { email, password: `Wrong-${i}` } })).status,
      );
    }
    // Ten tries per email from one address per 15 minutes in all (api/ratelimit), not ten on each of four processes.
    expect(statuses.slice(0, 10).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('loses and doubles nothing when a process is stopped while 50 orders go through the proxy', async () => {
    const victim = servers[PROCESSES - 1] as RunningServer;
    const keys = Array.from({ length: 50 }, () => newKey());
    const retriesBefore = proxy.retries;
    let exitCode: number | null | undefined;
    const sent = keys.map(async (key, i) => {
      // Spread over about a second, so some are in flight on the victim when it is told to stop.
      await new Promise((r) => setTimeout(r, i * 20));
      return call<PlacedOrder>(proxy.url, 'POST', 'place-order', {
        token: shopper.token,
        key,
        body: orderRequest([{ product: products[i % 3] as FixtureProduct, quantity: 1 + (i % 3) }], {
          CustomerEmail: shopper.email,
        }),
      });
    });
    const stopped = new Promise<void>((resolve) =>
      setTimeout(async () => {
        exitCode = await victim.terminate();
        resolve();
      }, 300),
    );
    const answers = await Promise.all(sent);
    await stopped;
    for (const r of answers) expect(r.status, r.body.sys_message).toBe(200);
    const ids = answers.map((r) => r.body.data.orderID);
    expect(new Set(ids).size).toBe(50);
    const rows = await query<{ id: number }>('select id from orders where id = any($1::int[])', [ids]);
    expect(rows).toHaveLength(50);
    const all = await query<{ count: string }>('select count(*) from orders where user_id = $1', [
      shopper.veryOtpLoginID,
    ]);
    expect(Number(all[0]?.count)).toBe(51);
    expect(exitCode, victim.output().slice(-3000)).toBe(0);
    console.log(
      `SIGTERM during 50 orders: all answered, none doubled; ${proxy.retries - retriesBefore} retried on another process; exit ${exitCode}`,
    );
    expect(victim.output()).toContain('SIGTERM: finishing the requests in flight');
  });

  it('ran each periodic job once per period across the processes', async () => {
    // The orders' sweep asks at every start and then hourly: four starts, one turn in the period.
    const sweeps = servers.filter((s) => s.output().includes('this process sweeps this period'));
    expect(sweeps).toHaveLength(1);
    const leases = await query<{ name: string; holder: string }>(
      "select name, holder from job_leases where name = 'orders-sweep'",
    );
    expect(leases).toHaveLength(1);
  });
});
