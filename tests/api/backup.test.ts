import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../api/accounts/password.js';
import { unpackAndVerify } from '../../api/backup/archive.js';
import { restoreBackup } from '../../api/backup/restore.js';
import { openDatabase } from '../../api/db/database.js';
import { buildTestApp, createUserWithToken, makeTestApp, type TestApp, testConfig } from '../support/app.js';
import { DIALECTS, TEST_DATABASE_URL } from '../support/databases.js';
import { type FixtureProduct, insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';

/**
 * The admin's backup endpoints (issue 27) on both databases: list, make one now, download one,
 * and what they refuse; the schedule's lease and pruning with a short BACKUP_EVERY; and, on
 * PostgreSQL, a restore through pg_restore. The whole round trip through real server processes
 * on SQLite is tests/api/backup-restore.test.ts.
 */
type Auth = { authorization: string };
const PASSWORD = 'Admin-Pass1!';

const scratch = path.join(tmpdir(), `storefront-backup-api-${process.pid}-${Date.now()}`);
let dirs = 0;
function freshDir(name: string): string {
  const dir = path.join(scratch, `${name}-${++dirs}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LAST_MIGRATION = readdirSync(path.join(process.cwd(), 'api/db/migrations'))
  .filter((f) => /^\d{8}_\d{4}_/.test(f))
  .sort()
  .at(-1)
  ?.replace(/\.ts$/, '');

for (const dialect of DIALECTS) {
  describe(`backups on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let shopper: { email: string; auth: Auth };
    let cake: FixtureProduct;
    let dataDir: string;
    let backupDir: string;

    beforeAll(async () => {
      dataDir = freshDir('data');
      backupDir = freshDir('backups');
      // An image as the upload code stores it, and the generated session secret.
      mkdirSync(path.join(dataDir, 'media'));
      writeFileSync(path.join(dataDir, 'media', 'p-test-320.webp'), 'not really a picture');
      writeFileSync(path.join(dataDir, 'jwt-secret'), 'x'.repeat(48), { mode: 0o600 });
      t = await makeTestApp(dialect, {
        dataDir,
        backupDir,
        databaseUrl: dialect === 'postgres' ? TEST_DATABASE_URL : null,
      });
      const owner = await createUserWithToken(t.app, { role: '1' });
      admin = owner.auth;
      await t.app.db
        .updateTable('users')
        .set({ password_hash: await hashPassword(PASSWORD) })
        .where('id', '=', owner.id)
        .execute();
      shopper = await createUserWithToken(t.app, { phone: '9812345678' });
      cake = await insertProduct(t.app, { title: 'Backup Cake', price: 700 });
    });
    afterAll(async () => t.close());

    async function place(): Promise<number> {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/place-order',
        headers: { ...shopper.auth, 'idempotency-key': newKey() },
        payload: orderRequest([{ product: cake, quantity: 2 }], {
          CustomerEmail: shopper.email,
          CustomerPhone: '9812345678',
        }),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.orderID;
    }

    it('is for admins only: a shopper gets 403, no token 401', async () => {
      for (const [method, url] of [
        ['GET', '/api/admin/backups'],
        ['POST', '/api/admin/backups'],
        ['POST', '/api/admin/backups/backup-20261125-093000.tar.gz/download'],
      ] as const) {
        const asShopper = await t.app.inject({ method, url, headers: shopper.auth });
        expect(asShopper.statusCode, `${method} ${url}`).toBe(403);
        expect(asShopper.json()).toMatchObject({ isSuccess: false, data: null });
        const none = await t.app.inject({ method, url });
        expect(none.statusCode, `${method} ${url}`).toBe(401);
        expect(none.json().isSuccess).toBe(false);
      }
    });

    it('lists none at first, and says nothing is wrong without a schedule', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/backups', headers: admin });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        everyMs: null,
        keep: 7,
        newestAt: null,
        warning: null,
        running: false,
        unavailable: null,
        backups: [],
      });
    });

    let made: { name: string; size: number; createdAt: number };
    let ordersInBackup: number[];

    it('makes one now: the database, the images and the secrets apart, with counts and checksums, mode 0600', async () => {
      ordersInBackup = [await place(), await place()];
      const before = Date.now();
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/backups', headers: admin });
      expect(res.statusCode, res.body).toBe(201);
      const data = res.json().data;
      expect(data.name).toMatch(/^backup-\d{8}-\d{6}\.tar\.gz$/);
      expect(data).toMatchObject({ dialect, counts: { products: 1, orders: 2, users: 2 } });
      // The last migration applied: the newest file in api/db/migrations.
      expect(data.schemaVersion).toBe(LAST_MIGRATION);
      expect(data.createdAt).toBeGreaterThanOrEqual(before);
      made = data;
      const file = path.join(backupDir, data.name);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(file).size).toBe(data.size);
      // Nothing half-made is left beside it.
      expect(readdirSync(backupDir)).toEqual([data.name]);

      const into = freshDir('unpacked');
      const manifest = await unpackAndVerify(file, into);
      expect(manifest.files.map((f) => f.path).sort()).toEqual(
        [
          dialect === 'sqlite' ? 'shop.db' : 'database.pgdump',
          'jwt-secret',
          'shop-secrets.json',
          'media/p-test-320.webp',
        ].sort(),
      );
      expect(manifest.secrets).toBe('included');
      expect(readFileSync(path.join(into, 'jwt-secret'), 'utf8')).toBe('x'.repeat(48));
    });

    it('lists it, newest first, with its size and counts', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/backups', headers: admin });
      const data = res.json().data;
      expect(data.newestAt).toBe(made.createdAt);
      expect(data.backups).toEqual([made]);
    });

    it('downloads it with the password, less the secrets (application/gzip, no-store, attachment)', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/admin/backups/${made.name}/download`,
        headers: admin,
        payload: { password: PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/gzip');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${made.name}"`);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      const file = path.join(freshDir('downloaded'), made.name);
      writeFileSync(file, res.rawPayload);
      const into = freshDir('downloaded-unpacked');
      const manifest = await unpackAndVerify(file, into);
      expect(manifest.secrets).toBe('left out');
      expect(manifest.files.map((f) => f.path).sort()).toEqual(
        [dialect === 'sqlite' ? 'shop.db' : 'database.pgdump', 'media/p-test-320.webp'].sort(),
      );
      expect(manifest.counts).toEqual({ products: 1, orders: 2, users: 2 });
    });

    it('refuses a name that is not a backup, or climbs out of BACKUP_DIR, with 400; an unknown one with 404', async () => {
      const bad = [
        'jwt-secret',
        '..%2F..%2Fjwt-secret',
        '%2E%2E%2Fshop.db',
        `${made.name}%2F..%2F..%2Fjwt-secret`,
        'backup-20261125-093000.tar.gz.bak',
        'backup-2026112-093000.tar.gz',
        '..%5C..%5Cjwt-secret',
        `%00${made.name}`,
      ];
      for (const name of bad) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/admin/backups/${name}/download`,
          headers: admin,
          payload: { password: PASSWORD },
        });
        expect(res.statusCode, name).toBe(400);
        expect(res.json(), name).toMatchObject({
          isSuccess: false,
          sys_message: 'That is not the name of a backup (backup-YYYYMMDD-HHMMSS.tar.gz).',
        });
      }
      const missing = await t.app.inject({
        method: 'POST',
        url: '/api/admin/backups/backup-20990101-000000.tar.gz/download',
        headers: admin,
        payload: { password: PASSWORD },
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({
        isSuccess: false,
        sys_message: 'There is no backup named backup-20990101-000000.tar.gz.',
      });
    });

    it('makes one backup at a time: a second request meanwhile is a 409', async () => {
      const [a, b] = await Promise.all([
        t.app.inject({ method: 'POST', url: '/api/admin/backups', headers: admin }),
        t.app.inject({ method: 'POST', url: '/api/admin/backups', headers: admin }),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
      const refused = a.statusCode === 409 ? a : b;
      expect(refused.json()).toMatchObject({
        isSuccess: false,
        sys_message: 'A backup is being made right now; try again when it is done.',
      });
    });

    it('clears what a killed backup left when it is hours old, never a young one (another may be writing it)', async () => {
      const old = path.join(backupDir, '.partial-backup-20200101-000000');
      mkdirSync(path.join(old, 'media'), { recursive: true });
      const hoursAgo = new Date(Date.now() - 7 * 60 * 60 * 1000);
      utimesSync(old, hoursAgo, hoursAgo);
      const young = path.join(backupDir, '.partial-backup-20990101-000000.tar.gz');
      writeFileSync(young, 'being written');
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/backups', headers: admin });
      expect(res.statusCode, res.body).toBe(201);
      const left = readdirSync(backupDir).filter((n) => n.startsWith('.'));
      expect(left).toEqual(['.partial-backup-20990101-000000.tar.gz']);
      rmSync(young);
    });

    if (dialect === 'postgres') {
      it('restores the database with pg_restore, keeping a dump of what was there', async () => {
        await place(); // after the backup: the restore takes it away (and keeps it aside)
        const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(t.app.db)).rows[0]?.s;
        const restoreDir = freshDir('restore-into');
        const done = await restoreBackup(path.join(backupDir, made.name), {
          dataDir: restoreDir,
          databaseUrl: TEST_DATABASE_URL,
          ...(schema ? { pgSchema: schema } : {}),
        });
        expect(done.manifest.counts.orders).toBe(2);
        const ids = (await t.app.db.selectFrom('orders').select('id').orderBy('id').execute()).map(
          (r) => r.id,
        );
        expect(ids).toEqual(ordersInBackup);
        expect(done.setAside).not.toBeNull();
        expect(statSync(path.join(done.setAside as string, 'database.pgdump')).size).toBeGreaterThan(0);
        expect(readFileSync(path.join(restoreDir, 'media', 'p-test-320.webp'), 'utf8')).toBe(
          'not really a picture',
        );
      });
    }
  });

  describe(`the backup schedule on ${dialect}`, () => {
    it('runs once per period across processes sharing a database (the lease), and logs each backup', async () => {
      const first = await makeTestApp(dialect, {
        dataDir: freshDir('sched-data'),
        backupDir: freshDir('sched-a'),
        backupEvery: 1000,
        backupKeep: 50,
        databaseUrl: dialect === 'postgres' ? TEST_DATABASE_URL : null,
      });
      const logged: { msg: string; why?: string }[] = [];
      // A second process: another app on the same database, its own backup folder. On PostgreSQL
      // it has its own connection pool, as another process would; SQLite's in-memory test
      // database exists only on its one connection, so there the two apps share it.
      const schema =
        dialect === 'postgres'
          ? (await sql<{ s: string }>`select current_schema() as s`.execute(first.app.db)).rows[0]?.s
          : undefined;
      const secondDb =
        dialect === 'postgres'
          ? openDatabase({ databaseUrl: TEST_DATABASE_URL, ...(schema ? { pgSchema: schema } : {}) })
          : first.db;
      const second = await buildTestApp({
        config: testConfig({ ...first.config, backupDir: freshDir('sched-b') }),
        db: secondDb,
        logger: { level: 'info', stream: { write: (line: string) => logged.push(JSON.parse(line)) } },
      });
      await second.ready();
      const started = Date.now();
      await sleep(3600);
      await second.close();
      if (secondDb !== first.db) await secondDb.destroy();
      await first.app.close();
      const elapsed = Date.now() - started;
      const made = [...readdirSync(first.config.backupDir), ...readdirSync(second.config.backupDir)].filter(
        (n) => n.endsWith('.tar.gz'),
      );
      // A backup when the lease is free (at once, it was never taken), then one per second.
      expect(made.length).toBeGreaterThanOrEqual(2);
      expect(made.length).toBeLessThanOrEqual(Math.ceil(elapsed / 1000) + 1);
      const lines = logged.filter((l) => l.msg.startsWith('backup: made'));
      expect(lines.length).toBe(readdirSync(second.config.backupDir).length);
      await first.db.destroy();
    });

    it('keeps the newest BACKUP_KEEP, and the list follows (newest first, no warning)', async () => {
      const t = await makeTestApp(dialect, {
        dataDir: freshDir('keep-data'),
        backupDir: freshDir('keep'),
        backupEvery: 1000,
        backupKeep: 2,
        databaseUrl: dialect === 'postgres' ? TEST_DATABASE_URL : null,
      });
      try {
        const admin = (await createUserWithToken(t.app, { role: '1' })).auth;
        const list = async () =>
          (await t.app.inject({ method: 'GET', url: '/api/admin/backups', headers: admin })).json().data;
        const seen = new Set<string>();
        let newest: number | null = null;
        const deadline = Date.now() + 10_000;
        while (seen.size < 4 && Date.now() < deadline) {
          await sleep(200);
          const asked = Date.now();
          const data = await list();
          const answered = Date.now();
          for (const b of data.backups) seen.add(b.name);
          expect(data.backups.length).toBeLessThanOrEqual(2);
          if (data.newestAt !== null) {
            expect(data.newestAt).toBeGreaterThanOrEqual(newest ?? 0);
            newest = data.newestAt;
            // A backup is named by its start: on a loaded machine pg_dump can take longer than
            // two periods, and then the warning is right. The server's clock read lies between
            // asked and answered, so only the cases on either side of the line are certain.
            if (answered - data.newestAt <= 2000) expect(data.warning).toBeNull();
            if (asked - data.newestAt > 2000)
              expect(data.warning).toMatch(/older than two scheduled periods/);
          }
        }
        expect(seen.size).toBeGreaterThanOrEqual(4);
        await sleep(300);
        const data = await list();
        expect(data.everyMs).toBe(1000);
        expect(data.backups.length).toBe(2);
        expect(
          readdirSync(t.config.backupDir).filter((n) => n.endsWith('.tar.gz')).length,
        ).toBeLessThanOrEqual(2);
        const names = [...seen].sort();
        // The two kept are the newest made (a third may be under way).
        for (const b of data.backups) expect(names.slice(-3)).toContain(b.name);
      } finally {
        await t.close();
      }
    });

    it('warns when none exists while scheduled, and logs a failed backup with its reason', async () => {
      const notAFolder = path.join(freshDir('fail'), 'a-file');
      writeFileSync(notAFolder, '');
      const logged: { level: number; msg: string; reason?: string }[] = [];
      const t = await makeTestApp(
        dialect,
        {
          dataDir: freshDir('fail-data'),
          backupDir: notAFolder,
          backupEvery: 1000,
          databaseUrl: dialect === 'postgres' ? TEST_DATABASE_URL : null,
        },
        { logger: { level: 'info', stream: { write: (line: string) => logged.push(JSON.parse(line)) } } },
      );
      try {
        const admin = (await createUserWithToken(t.app, { role: '1' })).auth;
        const res = await t.app.inject({ method: 'GET', url: '/api/admin/backups', headers: admin });
        expect(res.json().data).toMatchObject({
          everyMs: 1000,
          newestAt: null,
          warning: 'No backup has been made yet, though backups are scheduled.',
        });
        const deadline = Date.now() + 5000;
        while (!logged.some((l) => l.msg.startsWith('backup failed')) && Date.now() < deadline)
          await sleep(100);
        const failure = logged.find((l) => l.msg.startsWith('backup failed'));
        expect(failure?.level).toBe(50);
        expect(failure?.reason).toMatch(/EEXIST|ENOTDIR|not a directory|file already exists/i);
      } finally {
        await t.close();
      }
    });
  });
}
