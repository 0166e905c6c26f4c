import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../domain/accounts.js';
import type { PlacedOrder } from '../../domain/orders.js';
import { adminToken, type RunningServer, startServer, tempDir } from '../support/e2e.js';
import { type FixtureProduct, orderRequest } from '../support/order-fixtures.js';
import { registerShopperByMailFolder } from '../support/shopper.js';

/**
 * Backups end to end on SQLite, with real server processes and the real commands (issue 27):
 * `npm run backup` while shoppers place orders in parallel; `npm run restore` into a fresh
 * DATA_DIR and a shop started on it (every order acknowledged before the backup began, its lines
 * and totals, the images, a session from before); a damaged or edited archive refused with the
 * data untouched; a restore refused while a server runs; an older backup migrated.
 */
const run = promisify(execFile);
const ROOT = path.resolve('.');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

/** Runs `npm run backup` / `npm run restore` (their scripts) with the shop's settings. */
async function command(
  script: 'backup' | 'restore',
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(TSX, [`scripts/${script}.ts`, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/** Every file under `dir` with its SHA-256: "untouched" means this is the same before and after. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string, rel: string) => {
    for (const e of readdirSync(at, { withFileTypes: true })) {
      const p = path.join(at, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p, r);
      else out[r] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir, '');
  return out;
}

type Answer<T> = { isSuccess: boolean; data: T; sys_message: string };

async function api<T>(base: string, method: string, url: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}/api/${url}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(method === 'POST' && url === 'place-order' ? { 'idempotency-key': crypto.randomUUID() } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Answer<T> };
}

describe('backup and restore with real servers (SQLite)', () => {
  let work: string;
  let server: RunningServer;
  let shopper: LoginData;
  let products: FixtureProduct[];
  let archive: string;
  /** Orders whose answer came before `npm run backup` was started, as they were answered. */
  const before: PlacedOrder[] = [];
  const during: PlacedOrder[] = [];
  let backupOut = '';
  let restoredDir: string;
  let imageUrl: string;

  beforeAll(async () => {
    work = tempDir('backup-restore');
    // Four workers place orders as fast as the shop takes them: place-order's rate limit is not what this tests.
    server = await startServer({
      webDir: path.join(work, 'no-web'),
      env: { PLACE_ORDER_LIMITS: '1000000/1000000' },
    });
    shopper = await registerShopperByMailFolder(server, `backup-${Date.now()}@example.test`);
    const list = await api<
      { productID: number; title: string; price: number; variations: unknown[]; imagePath: string }[]
    >(server.url, 'GET', 'ABCGetProducts');
    const plain = list.body.data.filter((p) => p.variations.length === 0 && p.imagePath);
    products = plain
      .slice(0, 3)
      .map((p) => ({ id: p.productID, title: p.title, price: p.price, variations: [] }));
    expect(products.length).toBe(3);
    imageUrl = (list.body.data[0]?.imagePath ?? '').split(',')[0] ?? '';
    expect(imageUrl).toMatch(/^\/media\//);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('npm run backup, while orders are placed in parallel, holds every order acknowledged before it began', async () => {
    let stop = false;
    let backupBegan = Number.POSITIVE_INFINITY;
    const shopperWorker = async (n: number) => {
      let i = 0;
      while (!stop) {
        const product = products[(n + i++) % products.length] as FixtureProduct;
        const res = await api<PlacedOrder>(
          server.url,
          'POST',
          'place-order',
          shopper.token,
          orderRequest([{ product, quantity: 1 + (i % 3) }], {
            CustomerEmail: shopper.email,
            CustomerPhone: '9876543210',
          }),
        );
        expect(res.status, res.body.sys_message).toBe(200);
        // Sorted by when the answer came, against when the command was started.
        (Date.now() < backupBegan ? before : during).push(res.body.data);
      }
    };
    const shoppers = [0, 1, 2, 3].map(shopperWorker);
    await new Promise((r) => setTimeout(r, 1500));
    backupBegan = Date.now();
    const made = await command('backup', { DATA_DIR: server.dataDir, NODE_ENV: 'test', SEED_DEMO: 'false' });
    stop = true;
    await Promise.all(shoppers);
    backupOut = made.out;
    expect(made.code, made.out).toBe(0);
    const files = readdirSync(path.join(server.dataDir, 'backups'));
    expect(files).toHaveLength(1);
    archive = path.join(work, files[0] as string);
    writeFileSync(archive, readFileSync(path.join(server.dataDir, 'backups', files[0] as string)));
    expect(statSync(path.join(server.dataDir, 'backups', files[0] as string)).mode & 0o777).toBe(0o600);
    expect(before.length).toBeGreaterThan(5);
    expect(during.length).toBeGreaterThan(0);
    console.log(
      `backup under load: ${before.length} orders before, ${during.length} while it ran; ${backupOut.trim()}`,
    );
  }, 120_000);

  it('refuses to restore while a server runs on the folder, and changes nothing', async () => {
    const was = fingerprint(path.join(server.dataDir, 'media'));
    const res = await command('restore', { DATA_DIR: server.dataDir, NODE_ENV: 'test' }, [archive]);
    expect(res.code).toBe(1);
    expect(res.out).toMatch(
      /Not restored: A server is running on .* \(pid \d+ on .*\): stop it first, then restore\./,
    );
    expect(fingerprint(path.join(server.dataDir, 'media'))).toEqual(was);
    expect(readdirSync(server.dataDir).filter((n) => n.startsWith('before-restore-'))).toEqual([]);
  });

  it('restores into a fresh DATA_DIR; the shop started on it has every acknowledged order, the images and the old session', async () => {
    restoredDir = path.join(work, 'restored');
    const res = await command('restore', { DATA_DIR: restoredDir, NODE_ENV: 'test' }, [archive]);
    expect(res.code, res.out).toBe(0);
    expect(res.out).toContain('There was no data there before: nothing was set aside.');
    const shop = await startServer({ webDir: path.join(work, 'no-web'), dataDir: restoredDir });
    try {
      const admin = await adminToken(shop);
      for (const placed of before) {
        const got = await api<{
          totalAmount: number;
          subtotal: number;
          deliveryCharge: number;
          lines: { productID: number; quantity: number; unitPrice: number; lineTotal: number }[];
        }>(shop.url, 'GET', `admin/orders/${placed.orderID}`, admin);
        expect(got.status, `order ${placed.orderID}`).toBe(200);
        expect(got.body.data.totalAmount).toBe(placed.totalAmount);
        expect(got.body.data.subtotal).toBe(placed.subtotal);
        expect(got.body.data.deliveryCharge).toBe(placed.deliveryCharge);
        expect(got.body.data.lines.map((l) => [l.productID, l.quantity, l.lineTotal])).toEqual(
          placed.items.map((i) => [i.productID, i.quantity, i.lineTotal]),
        );
      }
      // The images the catalogue names load.
      const image = await fetch(`${shop.url}${imageUrl}`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/webp');
      // The shopper's token from before the backup still works: the same secret came back.
      const history = await api<unknown[]>(
        shop.url,
        'GET',
        `GetOrderHistoryByEmail?email=${encodeURIComponent(shopper.email)}`,
        shopper.token,
      );
      expect(history.status).toBe(200);
      expect(history.body.isSuccess).toBe(true);
      // What the backup says it holds is what the restored shop has (nothing half-written).
      const db = new Database(path.join(restoredDir, 'shop.db'), { readonly: true });
      const orders = (db.prepare('select count(*) as n from orders').get() as { n: number }).n;
      const orphanLines = (
        db
          .prepare('select count(*) as n from order_items where order_id not in (select id from orders)')
          .get() as {
          n: number;
        }
      ).n;
      db.close();
      expect(backupOut).toContain(`${orders} orders`);
      expect(orders).toBeGreaterThanOrEqual(before.length);
      expect(orders).toBeLessThanOrEqual(before.length + during.length);
      expect(orphanLines).toBe(0);
    } finally {
      await shop.stop();
    }
  }, 120_000);

  /** The archive unpacked, changed by `edit`, and packed again (the manifest as it was unless edited). */
  async function tampered(name: string, edit: (dir: string) => void | Promise<void>): Promise<string> {
    const dir = path.join(work, `tamper-${name}`);
    mkdirSync(dir);
    await tar.x({ file: archive, cwd: dir });
    await edit(dir);
    const out = path.join(work, `${name}.tar.gz`);
    // The manifest first, as a backup writes it (when the edit left one).
    const names = readdirSync(dir);
    const entries = [
      ...names.filter((n) => n === 'manifest.json'),
      ...names.filter((n) => n !== 'manifest.json'),
    ];
    await tar.c({ gzip: true, cwd: dir, file: out }, entries);
    return out;
  }

  it('refuses a truncated archive and one with an edited file, naming the problem, and leaves the data as it was', async () => {
    const truncated = path.join(work, 'truncated.tar.gz');
    const bytes = readFileSync(archive);
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const edited = await tampered('edited', (dir) => {
      const media = readdirSync(path.join(dir, 'media'));
      writeFileSync(path.join(dir, 'media', media[0] as string), 'a different picture');
    });
    const editedSecret = await tampered('secret', (dir) =>
      writeFileSync(path.join(dir, 'jwt-secret'), 'short'),
    );
    const badManifest = await tampered('bad-manifest', (dir) =>
      writeFileSync(path.join(dir, 'manifest.json'), '{"format":"storefront-backup/1","files":'),
    );
    const noManifest = await tampered('no-manifest', (dir) => rmSync(path.join(dir, 'manifest.json')));
    const extra = await tampered('extra', (dir) => writeFileSync(path.join(dir, 'extra.txt'), 'not listed'));
    const missing = await tampered('missing', (dir) => rmSync(path.join(dir, 'jwt-secret')));
    const link = await tampered('link', (dir) =>
      symlinkSync('/etc/passwd', path.join(dir, 'media', 'evil.webp')),
    );
    const untouched = fingerprint(restoredDir);
    const cases: [string, RegExp][] = [
      [truncated, /Not restored: The archive is damaged or truncated \(.+\); nothing was restored\./],
      [edited, /Not restored: media\/\S+ is \d+ bytes, the manifest says \d+: the file was changed\./],
      [editedSecret, /Not restored: jwt-secret is \d+ bytes, the manifest says \d+: the file was changed\./],
      [
        badManifest,
        /Not restored: The archive has no readable manifest\.json: it is not a backup of this shop\./,
      ],
      [noManifest, /Not restored: The archive has no readable manifest\.json/],
      [extra, /Not restored: The archive holds files its manifest does not list: extra\.txt\./],
      [missing, /Not restored: jwt-secret is listed in the manifest but missing from the archive\./],
      [link, /Not restored: The archive holds entries a backup never has: media\/evil\.webp\./],
    ];
    for (const [file, message] of cases) {
      const res = await command('restore', { DATA_DIR: restoredDir, NODE_ENV: 'test' }, [file]);
      expect(res.code, res.out).toBe(1);
      expect(res.out).toMatch(message);
      console.log(`restore of ${path.basename(file)}: ${res.out.trim()}`);
      expect(fingerprint(restoredDir)).toEqual(untouched);
    }
    // An edit that keeps the size is caught by the checksum.
    const sameSize = await tampered('same-size', (dir) => {
      const file = path.join(dir, 'jwt-secret');
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`);
    });
    const res = await command('restore', { DATA_DIR: restoredDir, NODE_ENV: 'test' }, [sameSize]);
    expect(res.out).toContain(
      'Not restored: jwt-secret does not match its checksum in the manifest: the file was changed.',
    );
    expect(fingerprint(restoredDir)).toEqual(untouched);
  }, 180_000);

  it('restores over existing data by moving it aside (never deleting it), and migrates a backup older than the code', async () => {
    // The backup as an older shop made it: without the last migration (undone by its own `down`).
    let latest = '';
    let previous = '';
    const older = await tampered('older', async (dir) => {
      const sqlite = new Database(path.join(dir, 'shop.db'));
      const names = (
        sqlite.prepare('select name from kysely_migration order by name desc limit 2').all() as {
          name: string;
        }[]
      ).map((r) => r.name);
      [latest = '', previous = ''] = names;
      // biome-ignore lint/suspicious/noExplicitAny: a migration sees the database untyped, as it was.
      const kysely = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
      const migration = (await import(
        pathToFileURL(path.join(process.cwd(), 'api/db/migrations', `${latest}.ts`)).href
      )) as { down(db: unknown): Promise<void> };
      await migration.down(kysely);
      await kysely.deleteFrom('kysely_migration').where('name', '=', latest).execute();
      await kysely.destroy();
      const manifestFile = path.join(dir, 'manifest.json');
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
        schemaVersion: string;
        files: { path: string; size: number; sha256: string }[];
      };
      const shopDb = manifest.files.find((f) => f.path === 'shop.db');
      if (!shopDb) throw new Error('no shop.db in the manifest');
      const content = readFileSync(path.join(dir, 'shop.db'));
      shopDb.size = content.length;
      shopDb.sha256 = createHash('sha256').update(content).digest('hex');
      manifest.schemaVersion = previous;
      writeFileSync(manifestFile, JSON.stringify(manifest));
    });
    const was = fingerprint(restoredDir);
    const res = await command('restore', { DATA_DIR: restoredDir, NODE_ENV: 'test' }, [older]);
    expect(res.code, res.out).toBe(0);
    expect(res.out).toContain('The backup was older than the code: its database has been migrated.');
    const aside = readdirSync(restoredDir).filter((n) => n.startsWith('before-restore-'));
    expect(aside).toHaveLength(1);
    const kept = fingerprint(path.join(restoredDir, aside[0] as string));
    // Everything that was replaced is kept, byte for byte.
    for (const [file, sha] of Object.entries(kept)) expect(was[file], file).toBe(sha);
    expect(Object.keys(kept)).toEqual(expect.arrayContaining(['shop.db', 'jwt-secret']));
    const db = new Database(path.join(restoredDir, 'shop.db'), { readonly: true });
    expect(db.prepare('select name from kysely_migration order by name desc limit 1').get()).toEqual({
      name: latest,
    });
    db.close();
  }, 60_000);

  it('backs itself up every BACKUP_EVERY, keeps the newest BACKUP_KEEP, logs each, and the admin figure follows', async () => {
    const shop = await startServer({
      webDir: path.join(work, 'no-web'),
      env: { BACKUP_EVERY: '2s', BACKUP_KEEP: '2' },
    });
    try {
      const admin = await adminToken(shop);
      const made = () =>
        [...shop.output().matchAll(/"msg":"backup: made (backup-[\d-]+\.tar\.gz)/g)].map((m) => m[1]);
      const deadline = Date.now() + 30_000;
      while (made().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      const names = made();
      expect(names.length, shop.output().slice(-2000)).toBeGreaterThanOrEqual(3);
      // Pruned to two. A backup just renamed into place stays until its pruning a moment later
      // (never more than one over), so the list is read until it shows the two.
      type List = { newestAt: number | null; warning: string | null; backups: { name: string }[] };
      let list = await api<List>(shop.url, 'GET', 'admin/backups', admin);
      for (let i = 0; i < 20 && list.body.data.backups.length !== 2; i++) {
        expect(list.body.data.backups.length).toBeLessThanOrEqual(3);
        await new Promise((r) => setTimeout(r, 100));
        list = await api<List>(shop.url, 'GET', 'admin/backups', admin);
      }
      const kept = list.body.data.backups.map((b) => b.name);
      expect(kept).toHaveLength(2);
      const onDisk = readdirSync(path.join(shop.dataDir, 'backups')).filter((n) =>
        /^backup-.*\.tar\.gz$/.test(n),
      );
      expect(onDisk.length).toBeLessThanOrEqual(3);
      expect(names.slice(-3).some((n) => kept.includes(n as string))).toBe(true);
      expect(list.body.data.warning).toBeNull();
      expect(Date.now() - (list.body.data.newestAt ?? 0)).toBeLessThan(10_000);
      expect(shop.output()).toMatch(/"msg":"backup: removed \d+ old \(keeping 2\)"/);
    } finally {
      await shop.stop();
    }
  }, 60_000);
});

describe('npm run backup with nothing to back up, or without its tool', () => {
  it('says there is no database (and creates none) when DATA_DIR holds no shop', async () => {
    const dataDir = tempDir('empty-data');
    try {
      const res = await command('backup', { DATA_DIR: dataDir, NODE_ENV: 'test' });
      expect(res.code).toBe(1);
      expect(res.out).toContain(`No backup made: there is no database at ${path.join(dataDir, 'shop.db')}`);
      expect(readdirSync(dataDir).filter((n) => n !== 'jwt-secret')).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('on PostgreSQL without pg_dump, says so and names what to install, and makes no file', async () => {
    // A PATH with node and nothing else: no pg_dump to find.
    const bin = tempDir('only-node');
    symlinkSync(process.execPath, path.join(bin, 'node'));
    const dataDir = tempDir('pg-data');
    try {
      const res = await command('backup', {
        PATH: bin,
        DATA_DIR: dataDir,
        // Never reached: the missing tool is found before any connection.
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        NODE_ENV: 'test',
      });
      expect(res.code).toBe(1);
      expect(res.out).toContain(
        'No backup made: pg_dump is not on the PATH: install the PostgreSQL client tools',
      );
      expect(res.out).toContain('apt-get install postgresql-client');
      expect(readdirSync(dataDir).filter((n) => n !== 'jwt-secret')).toEqual([]);
    } finally {
      rmSync(bin, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
