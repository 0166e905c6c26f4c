import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { AdminInputError, createOrPromoteAdmin } from '../../api/accounts/admin.js';
import {
  hashParams,
  hashPassword,
  needsRehash,
  SCRYPT_PARAMS,
  verifyPassword,
} from '../../api/accounts/password.js';
import type { Db } from '../../api/db/database.js';
import { openDatabase } from '../../api/db/database.js';
// Every answer checked against its endpoint's contract, as in makeTestApp.
import { buildTestApp as buildApp, makeTestApp, testConfig } from '../support/app.js';
import { DIALECTS, openTestDb } from '../support/databases.js';
import { codeIn, startSmtp } from '../support/smtp.js';

/**
 * Setting up accounts: the first admin (the function on every dialect, and the
 * `npm run admin:create` command as a real process on a SQLite file), and mail
 * without SMTP_URL (written to DATA_DIR/mail/, the code logged in development).
 */
const run = promisify(execFile);

for (const dialect of DIALECTS) {
  describe(`the first admin on ${dialect}`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await openTestDb(dialect);
    });
    afterAll(async () => db.destroy());

    const row = (email: string) =>
      db.kysely.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();

    it('creates an admin, then promotes an existing shopper and ends its old sessions', async () => {
      expect(
        await createOrPromoteAdmin(db.kysely, ' Boss@Example.TEST ', 'Admin-Pass1', { setPassword: false }),
      ).toBe('created');
      const boss = await row('boss@example.test');
      expect(boss).toMatchObject({ role: '1', verified: 1 });
      expect(await verifyPassword('Admin-Pass1', boss.password_hash)).toBe(true);
      expect(
        await createOrPromoteAdmin(db.kysely, 'boss@example.test', 'Other-Pass1', { setPassword: false }),
      ).toBe('unchanged');
      // The start-up task never replaces a password an admin may have changed.
      expect(await verifyPassword('Admin-Pass1', (await row('boss@example.test')).password_hash)).toBe(true);

      const now = Date.now();
      const shopper = await db.kysely
        .insertInto('users')
        .values({
          name: 'Shopper',
          email: 'shopper@example.test',
          phone: '',
          password_hash: '!',
          address: '',
          role: '0',
          verified: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.kysely
        .insertInto('sessions')
        .values({
          id: 'old-session',
          user_id: shopper.id,
          created_at: now,
          expires_at: now + 60_000,
          revoked_at: null,
        })
        .execute();
      expect(
        await createOrPromoteAdmin(db.kysely, 'shopper@example.test', 'Promo-Pass1', { setPassword: true }),
      ).toBe('promoted');
      const promoted = await row('shopper@example.test');
      expect(promoted).toMatchObject({ role: '1', verified: 1 });
      expect(await verifyPassword('Promo-Pass1', promoted.password_hash)).toBe(true);
      const session = await db.kysely
        .selectFrom('sessions')
        .select('revoked_at')
        .where('id', '=', 'old-session')
        .executeTakeFirstOrThrow();
      expect(session.revoked_at).not.toBeNull();
    });

    it('refuses a weak password or a bad email, and ships no default', async () => {
      await expect(
        createOrPromoteAdmin(db.kysely, 'a@example.test', 'password', { setPassword: true }),
      ).rejects.toThrow(AdminInputError);
      await expect(
        createOrPromoteAdmin(db.kysely, 'not-an-email', 'Admin-Pass1', { setPassword: true }),
      ).rejects.toThrow(AdminInputError);
      const admins = await db.kysely.selectFrom('users').select('email').where('role', '=', '1').execute();
      expect(admins.map((a) => a.email).sort()).toEqual(['boss@example.test', 'shopper@example.test']);
    });
  });
}

describe('npm run admin:create', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'storefront-admin-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'test', SEED_DEMO: 'false' };
  const admin = (...args: string[]) =>
    run(path.resolve('node_modules/.bin/tsx'), ['scripts/admin-create.ts', ...args], { env }).then(
      (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({
        code: e.code,
        out: e.stdout,
        err: e.stderr,
      }),
    );

  it('creates, then sets the password of, an admin in the shop database; refuses bad input', async () => {
    expect(await admin('Owner@Example.test', 'Owner-Pass1')).toMatchObject({
      code: 0,
      out: 'owner@example.test: created.\n',
    });
    expect(await admin('owner@example.test', 'Owner-Pass2')).toMatchObject({
      code: 0,
      out: 'owner@example.test: already an admin; password set.\n',
    });
    const weak = await admin('owner@example.test', 'weak');
    expect(weak.code).toBe(1);
    expect(weak.err).toContain('Minimum 8 characters required.');
    expect((await admin()).code).toBe(2);

    const db = openDatabase({ databaseUrl: null, sqliteFile: path.join(dataDir, 'shop.db') });
    try {
      const owner = await db.kysely
        .selectFrom('users')
        .selectAll()
        .where('email', '=', 'owner@example.test')
        .executeTakeFirstOrThrow();
      expect(owner.role).toBe('1');
      expect(await verifyPassword('Owner-Pass2', owner.password_hash)).toBe(true);
    } finally {
      await db.destroy();
    }
  }, 120_000);
});

describe('mail without SMTP_URL', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'storefront-mail-'));
  let app: FastifyInstance;
  let db: Db;
  const logged: Record<string, unknown>[] = [];

  beforeAll(async () => {
    db = await openTestDb('sqlite');
    const stream = { write: (line: string) => logged.push(JSON.parse(line)) };
    app = await buildApp({
      config: testConfig({ dataDir, smtpUrl: null, mode: 'development' }),
      db,
      logger: { level: 'info', stream },
    });
    await app.ready();
  });
  afterAll(async () => {
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes each mail to DATA_DIR/mail/ and logs the code in development', async () => {
    const email = 'outbox@example.test';
    const res = await app.inject({
      method: 'POST',
      url: '/api/CreateAccount',
      payload: {
        name: 'Ravi',
        email,
        password: 'Good-Pass1',
        confirmPassword: 'Good-Pass1',
        phone: '9876543210',
      },
    });
    expect(res.statusCode).toBe(200);
    // Closing the app waits for mail in flight.
    await app.close();
    const files = readdirSync(path.join(dataDir, 'mail'));
    expect(files).toHaveLength(1);
    const eml = readFileSync(path.join(dataDir, 'mail', files[0] as string), 'utf8');
    expect(eml).toMatch(/^To: outbox@example\.test$/m);
    const code = eml.match(/Subject: Your registration code: (\d{6})/)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const line = logged.find((l) => l.msg === 'one-time code (development only)');
    expect(line).toMatchObject({ to: email, purpose: 'register', code });
  });
});

for (const dialect of DIALECTS) {
  describe(`no secret in the log when mail fails, on ${dialect}`, () => {
    it('logs no code, password or token of register, login-code and reset, at any level', async () => {
      const smtp = await startSmtp({ refuse: true });
      const lines: string[] = [];
      // Development with SMTP_URL: the mode that logs the most, yet not one that may log codes.
      const t = await makeTestApp(
        dialect,
        { smtpUrl: smtp.url, mode: 'development' },
        { logger: { level: 'trace', stream: { write: (line: string) => lines.push(line) } } },
      );
      const email = 'down@example.test';
      const password = 'First-Pass1';
      const newPassword = 'Second-Pass2';
      const post = (url: string, payload: object) =>
        t.app.inject({ method: 'POST', url: `/api${url}`, payload, remoteAddress: '10.9.0.1' });
      const secrets: string[] = [password, newPassword];
      /** The code of the next mail with this subject; a refused mail arrives again on each retry. */
      const nextCode = async (subject: string): Promise<string> => {
        for (;;) {
          const mail = await smtp.take(email);
          if (mail.subject.startsWith(subject)) return codeIn(mail);
        }
      };
      try {
        const registered = await post('/CreateAccount', {
          name: 'Ravi',
          email,
          password,
          confirmPassword: password,
          phone: '9876543210',
        });
        expect(registered.statusCode).toBe(200);
        const registerCode = await nextCode('Your registration code');
        secrets.push(registerCode);
        expect(
          (await post('/verifiedOtploginCustomer', { Email: email, Otp: registerCode })).statusCode,
        ).toBe(200);
        expect((await post('/onlyotp', { email })).statusCode).toBe(200);
        const loginCode = await nextCode('Your login code');
        secrets.push(loginCode);
        const byCode = await post('/VryOtpLogin', { email, otp: loginCode });
        expect(byCode.statusCode).toBe(200);
        secrets.push(byCode.json().data.token);
        expect((await post('/SendResetOtp', { email })).statusCode).toBe(200);
        const resetCode = await nextCode('Your password reset code');
        secrets.push(resetCode);
        expect((await post('/ResetPassword', { email, otp: resetCode, newPassword })).statusCode).toBe(200);
        const login = await post('/LoginCustomer', { email, password: newPassword });
        expect(login.statusCode).toBe(200);
        secrets.push(login.json().data.token);
      } finally {
        // Closing waits for every mail's last (failed) attempt, so its log line is in.
        await t.close();
        await smtp.close();
      }
      const log = lines.join('');
      // The failures themselves are logged, so the search below looks at them.
      expect(lines.filter((l) => l.includes('mail could not be sent'))).toHaveLength(3);
      // A code is searched as a number of its own, so a timestamp that happens to hold its digits is no hit.
      for (const secret of secrets) expect(log).not.toMatch(new RegExp(`(?<![0-9])${secret}(?![0-9])`));
    }, 120_000);
  });
}

describe('password hashes', () => {
  it('are salted scrypt at OWASP parameters, verify only the right password, and refuse tampering', async () => {
    // The shop's own parameters, not the test run's cheaper ones (see hashParams).
    const testN = process.env.STOREFRONT_TEST_SCRYPT_N;
    delete process.env.STOREFRONT_TEST_SCRYPT_N;
    onTestFinished(() => {
      if (testN !== undefined) process.env.STOREFRONT_TEST_SCRYPT_N = testN;
    });
    expect(hashParams({ VITEST: 'true', STOREFRONT_TEST_SCRYPT_N: '16384' })).toEqual({
      N: 16384,
      r: 8,
      p: 1,
    });
    // Only inside Vitest, only downwards, only a power of two.
    expect(hashParams({ STOREFRONT_TEST_SCRYPT_N: '16384' })).toEqual(SCRYPT_PARAMS);
    expect(hashParams({ VITEST: 'true', STOREFRONT_TEST_SCRYPT_N: String(2 ** 18) })).toEqual(SCRYPT_PARAMS);
    expect(hashParams({ VITEST: 'true', STOREFRONT_TEST_SCRYPT_N: '20000' })).toEqual(SCRYPT_PARAMS);
    const passwords = ['Good-Pass1', 'Good-Pass1', 'Ünïcode-Pass1', 'x'.repeat(128)];
    // In parallel: more hashes than may run at once all finish, each with its own salt.
    const hashes = await Promise.all(passwords.map((p) => hashPassword(p)));
    expect(new Set(hashes).size).toBe(4);
    for (const [i, hash] of hashes.entries()) {
      expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
      expect(await verifyPassword(passwords[i] as string, hash)).toBe(true);
      expect(needsRehash(hash)).toBe(false);
    }
    const [hash] = hashes as [string];
    expect(await verifyPassword('Good-Pass2', hash)).toBe(false);
    expect(await verifyPassword('good-pass1', hash)).toBe(false);
    // Too long: refused without hashing; the hasher itself refuses it too.
    expect(await verifyPassword(`Good-Pass1${'x'.repeat(200)}`, hash)).toBe(false);
    await expect(hashPassword('x'.repeat(129))).rejects.toThrow();
    // A stored value with absurd parameters (a tampered row) never matches and allocates nothing.
    const [, , , , salt, key] = hash.split('$');
    expect(await verifyPassword('Good-Pass1', `scrypt$1073741824$8$1$${salt}$${key}`)).toBe(false);
    expect(await verifyPassword('Good-Pass1', '!test-only')).toBe(false);
    expect(await verifyPassword('Good-Pass1', '')).toBe(false);
    // Weaker parameters still verify, and are marked for an upgrade at the next login.
    expect(needsRehash(`scrypt$16384$8$1$${salt}$${key}`)).toBe(true);
  }, 120_000);
});
