import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../api/accounts/password.js';
import { unpackAndVerify } from '../../api/backup/archive.js';
import { createBackup } from '../../api/backup/backup.js';
import { restoreBackup } from '../../api/backup/restore.js';
import { openDatabase } from '../../api/db/database.js';
import { unsubscribeKey } from '../../api/newsletter/newsletter.repository.js';
import { vapidKeys } from '../../api/push/vapid.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS, TEST_DATABASE_URL } from '../support/databases.js';
import { startSmtp, type TestSmtp, textOf } from '../support/smtp.js';

/**
 * What a backup archive lets its holder do (api/backup/README.md), read as an attacker reads it:
 * the session secret it carries (if any) and the `sessions` rows. A token signed from them for a
 * shopper's live session is refused, whether the archive is the machine's own (secrets included)
 * or the admin's download (none). The download asks the admin's password again, is rate-limited,
 * mails every admin, and carries no `jwt-secret`, no VAPID private key, no `shop_secrets` row;
 * `npm run backup` (createBackup) keeps them; restoring a download keeps the target's secrets and
 * ends the sessions. Both databases.
 */
const exec = promisify(execFile);
const scratch = path.join(tmpdir(), `storefront-backup-dl-${process.pid}-${Date.now()}`);
let dirs = 0;
function freshDir(name: string): string {
  const dir = path.join(scratch, `${name}-${++dirs}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PASSWORD = 'Backup-Pass1!';
const FILE_SECRET = 's'.repeat(48);

/** An HS256 token signed with `secret`: what anyone holding it can make. */
function forge(claims: Record<string, unknown>, secret: string): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** A table's rows in a pg_dump archive, as its COPY block (tab-separated), read with pg_restore. */
async function pgRows(dump: string, table: string): Promise<string[][]> {
  const { stdout } = await exec('pg_restore', ['--data-only', `--table=${table}`, '-f', '-', dump]);
  const lines = stdout.split('\n');
  const start = lines.findIndex((l) => l.startsWith('COPY '));
  if (start < 0) return [];
  const out: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === '\\.') break;
    out.push(line.split('\t'));
  }
  return out;
}

/** What an unpacked archive gives away: the secret to sign with (if any), the session rows, the secret rows. */
async function loot(
  dir: string,
): Promise<{ secret: string | null; sessions: string[][]; secretRows: string[] }> {
  const rows: string[] = [];
  let sessions: string[][];
  const db = path.join(dir, 'shop.db');
  if (existsSync(db)) {
    const copy = new Database(db, { readonly: true });
    sessions = (
      copy.prepare('select id, user_id from sessions').all() as { id: string; user_id: number }[]
    ).map((r) => [r.id, String(r.user_id)]);
    for (const r of copy.prepare('select name, value from shop_secrets').all() as {
      name: string;
      value: string;
    }[])
      rows.push(`${r.name}=${r.value}`);
    copy.close();
  } else {
    const dump = path.join(dir, 'database.pgdump');
    sessions = (await pgRows(dump, 'sessions')).map((r) => [r[0] ?? '', r[1] ?? '']);
    for (const r of await pgRows(dump, 'shop_secrets')) rows.push(`${r[0]}=${r[1]}`);
  }
  const part = path.join(dir, 'shop-secrets.json');
  if (existsSync(part))
    for (const r of JSON.parse(readFileSync(part, 'utf8')) as { name: string; value: string }[])
      rows.push(`${r.name}=${r.value}`);
  const file = path.join(dir, 'jwt-secret');
  const fromRows = rows.find((r) => r.startsWith('jwt='))?.slice(4) ?? null;
  const secret = existsSync(file) ? readFileSync(file, 'utf8').trim() : fromRows;
  return { secret, sessions, secretRows: rows };
}

for (const dialect of DIALECTS) {
  describe(`what a backup lets its holder do, on ${dialect}`, () => {
    let t: TestApp;
    let smtp: TestSmtp;
    let dataDir: string;
    let backupDir: string;
    let admin: { id: number; email: string; auth: { authorization: string } };
    let other: { email: string };
    let shopper: { id: number; email: string; token: string; auth: { authorization: string } };
    let vapidPrivate: string;
    let stored: string;
    /** The download, saved as the admin's browser saves it. */
    let downloaded: string;

    beforeAll(async () => {
      smtp = await startSmtp();
      dataDir = freshDir('data');
      backupDir = freshDir('backups');
      // The shop's own generated secret, as a shop without JWT_SECRET keeps it (SQLite: a file in
      // DATA_DIR, which the app also offers to the database, as PostgreSQL keeps it).
      writeFileSync(path.join(dataDir, 'jwt-secret'), FILE_SECRET, { mode: 0o600 });
      t = await makeTestApp(dialect, {
        dataDir,
        backupDir,
        jwtSecret: null,
        smtpUrl: smtp.url,
        trustProxy: true,
        databaseUrl: dialect === 'postgres' ? TEST_DATABASE_URL : null,
      });
      const hash = await hashPassword(PASSWORD);
      admin = await createUserWithToken(t.app, { role: '1' });
      other = await createUserWithToken(t.app, { role: '1' });
      await t.app.db.updateTable('users').set({ password_hash: hash }).where('role', '=', '1').execute();
      shopper = await createUserWithToken(t.app, { phone: '9812345678' });
      // The pair and the key the shop makes on first use, kept in shop_secrets.
      vapidPrivate = (await vapidKeys(t.app.db, null)).privateKey;
      await unsubscribeKey(t.app.db);
      const made = await t.app.inject({ method: 'POST', url: '/api/admin/backups', headers: admin.auth });
      expect(made.statusCode, made.body).toBe(201);
      stored = path.join(backupDir, made.json().data.name);
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    const me = (token: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/GetUserProfile',
        headers: { authorization: `Bearer ${token}` },
      });

    /** Every token the archive's rows and a secret can make for the shopper: each must be refused. */
    async function attack(sessions: string[][], secret: string) {
      const mine = sessions.filter(([, user]) => user === String(shopper.id));
      expect(mine.length).toBeGreaterThan(0);
      const now = Math.floor(Date.now() / 1000);
      for (const [sid] of mine) {
        const token = forge(
          { sub: String(shopper.id), email: shopper.email, role: '0', sid, iat: now, exp: now + 3600 },
          secret,
        );
        const res = await me(token);
        expect(res.statusCode, `signed for session row ${sid}`).toBe(401);
      }
    }

    it('the machine’s own archive (secrets included) signs no session: the rows hold only hashes', async () => {
      expect((await me(shopper.token)).statusCode).toBe(200);
      const into = freshDir('machine');
      await unpackAndVerify(stored, into);
      const got = await loot(into);
      expect(got.secret).toBe(FILE_SECRET);
      await attack(got.sessions, got.secret as string);
      // The shopper's own token still works: nothing was revoked to pass this test.
      expect((await me(shopper.token)).statusCode).toBe(200);
    });

    const download = (name: string, body: unknown, ip = '203.0.113.9') =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/backups/${name}/download`,
        headers: { ...admin.auth, 'x-forwarded-for': ip },
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
      });

    it('refuses the download without the admin’s password, or with a wrong one (nothing mailed)', async () => {
      const name = path.basename(stored);
      const none = await download(name, {});
      expect(none.statusCode).toBe(400);
      expect(none.json()).toMatchObject({
        isSuccess: false,
        sys_message: 'Enter your password to download a backup.',
      });
      const empty = await download(name, { password: '' });
      expect(empty.statusCode).toBe(400);
      const wrong = await download(name, { password: 'Not-The-Pass1!' });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toMatchObject({ isSuccess: false, sys_message: 'That password is not right.' });
      expect(smtp.mails.filter((m) => m.subject.includes('downloaded'))).toHaveLength(0);
      // The old address (a GET with the session alone) is gone.
      const get = await t.app.inject({
        method: 'GET',
        url: `/api/admin/backups/${name}`,
        headers: admin.auth,
      });
      expect(get.statusCode).toBe(404);
    });

    it('downloads with the password: no secret in it, every admin mailed who, when and from where', async () => {
      const name = path.basename(stored);
      const res = await download(name, { password: PASSWORD });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/gzip');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${name}"`);
      const file = path.join(freshDir('got'), name);
      writeFileSync(file, res.rawPayload);
      downloaded = file;
      const into = freshDir('downloaded');
      const manifest = await unpackAndVerify(file, into);
      expect(manifest.secrets).toBe('left out');
      const files = manifest.files.map((f) => f.path);
      expect(files).not.toContain('jwt-secret');
      expect(files).not.toContain('shop-secrets.json');
      const got = await loot(into);
      expect(got.secret).toBeNull();
      expect(got.secretRows).toEqual([]);
      // Not even deleted bytes: the private key and the secret appear nowhere in the database copy.
      const db = path.join(into, dialect === 'sqlite' ? 'shop.db' : 'database.pgdump');
      const text =
        dialect === 'sqlite'
          ? readFileSync(db).toString('latin1')
          : (await exec('pg_restore', ['-f', '-', db], { maxBuffer: 64 * 1024 * 1024 })).stdout;
      expect(text).not.toContain(vapidPrivate);
      expect(text).not.toContain(FILE_SECRET);
      // The worst case: the holder got the live shop's secret some other way. The rows still sign nothing.
      await attack(got.sessions, FILE_SECRET);
      // The copy made for the download is gone once sent; the stored archive is untouched.
      expect(readdirSync(backupDir).filter((n) => n.startsWith('.'))).toEqual([]);

      for (const to of [admin.email, other.email]) {
        const mail = await smtp.take(to.toLowerCase());
        expect(mail.subject).toBe('A backup of the shop was downloaded');
        const body = textOf(mail);
        expect(body).toContain(admin.email);
        expect(body).toContain(name);
        expect(body).toContain('203.0.113.9');
        // India's way, as every date the shop writes: "28 Nov 2026, 2:32 pm (India time)".
        expect(body).toMatch(/ on \d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m \(India time\)/);
      }
      expect(smtp.to(shopper.email.toLowerCase())).toHaveLength(0);
    });

    it('keeps the secrets in `npm run backup`’s archive (createBackup, as the command calls it)', async () => {
      const dir = freshDir('command');
      const made = await createBackup(t.db, {
        dataDir,
        backupDir: dir,
        databaseUrl: dialect === 'postgres' ? TEST_DATABASE_URL : null,
      });
      const into = freshDir('command-unpacked');
      const manifest = await unpackAndVerify(path.join(dir, made.name), into);
      expect(manifest.secrets).toBe('included');
      const got = await loot(into);
      expect(got.secret).toBe(FILE_SECRET);
      expect(got.secretRows).toContain(`jwt=${FILE_SECRET}`);
      expect(got.secretRows.some((r) => r.startsWith('vapid=') && r.includes(vapidPrivate))).toBe(true);
      expect(got.secretRows.some((r) => r.startsWith('newsletter='))).toBe(true);
    });

    it('rate-limits the password: the 11th try in an hour is a 429, even with the right one', async () => {
      const name = path.basename(stored);
      const seen: number[] = [];
      // Two tries were made above (one wrong, one right; a missing password is no try); eight more reach the limit.
      for (let i = 0; i < 8; i++) seen.push((await download(name, { password: `Wrong-${i}!` })).statusCode);
      expect(seen).toEqual(Array(8).fill(403));
      const limited = await download(name, { password: PASSWORD });
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toMatch(/^\d+$/);
      expect(limited.json()).toMatchObject({ isSuccess: false });
    });

    it('restoring the download keeps the target’s secrets, and ends every session', async () => {
      const target = freshDir('target');
      const schema =
        dialect === 'postgres'
          ? (await sql<{ s: string }>`select current_schema() as s`.execute(t.app.db)).rows[0]?.s
          : undefined;
      if (dialect === 'sqlite') {
        // The target shop: the live database as it is now (its secrets), and a secret file of its own.
        await t.db.sqlite?.backup(path.join(target, 'shop.db'));
        writeFileSync(path.join(target, 'jwt-secret'), 'target-secret', { mode: 0o600 });
      }
      // On PostgreSQL the target is the live schema itself.
      const targetSecrets = await t.app.db
        .selectFrom('shop_secrets')
        .select(['name', 'value'])
        .orderBy('name')
        .execute();
      expect(targetSecrets.map((r) => r.name)).toEqual(['jwt', 'newsletter', 'vapid']);
      const done = await restoreBackup(downloaded, {
        dataDir: target,
        databaseUrl: dialect === 'postgres' ? TEST_DATABASE_URL : null,
        ...(schema ? { pgSchema: schema } : {}),
      });
      expect(done.secrets).toBe('kept');
      expect(done.sessionsEnded).toBeGreaterThan(0);
      if (dialect === 'sqlite')
        expect(readFileSync(path.join(target, 'jwt-secret'), 'utf8')).toBe('target-secret');
      const db = openDatabase({
        databaseUrl: dialect === 'postgres' ? TEST_DATABASE_URL : null,
        sqliteFile: path.join(target, 'shop.db'),
        ...(schema ? { pgSchema: schema } : {}),
      });
      try {
        const after = await db.kysely
          .selectFrom('shop_secrets')
          .select(['name', 'value'])
          .orderBy('name')
          .execute();
        expect(after).toEqual(targetSecrets);
        expect(await db.kysely.selectFrom('sessions').select('id').execute()).toEqual([]);
        expect(await db.kysely.selectFrom('push_subscriptions').select('id').execute()).toEqual([]);
        expect((await db.kysely.selectFrom('users').select('id').execute()).length).toBe(3);
      } finally {
        await db.destroy();
      }
    });
  });
}
