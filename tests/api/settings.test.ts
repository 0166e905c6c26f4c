import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../api/config.js';

/**
 * Settings (DESIGN.md "Running it", README "Settings") are read and checked
 * once at start: each one is read into the config, each bad one is named,
 * and `tsx api/server.ts` with a bad one exits with the name on stderr before
 * it opens any database.
 */
const scratch = mkdtempSync(path.join(tmpdir(), 'a3-settings-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const BASE = { DATA_DIR: path.join(scratch, 'data'), JWT_SECRET: 's'.repeat(40) };
const aFile = path.join(scratch, 'a-file');
writeFileSync(aFile, 'not a folder');

function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig({ ...BASE, ...env });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  return '';
}

describe('every setting is read and checked', () => {
  it('reads each setting into the config', () => {
    const c = loadConfig({
      PORT: '4123',
      HOST: '127.0.0.1',
      DATA_DIR: path.join(scratch, 'd2'),
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/shop',
      JWT_SECRET: 'j'.repeat(32),
      ADMIN_EMAIL: 'owner@example.com',
      ADMIN_PASSWORD: 'A-strong-Pass1',
      SMTP_URL: 'smtp://u:p@mail.example.com:587',
      MAIL_FROM: 'Shop <shop@example.com>',
      SHOP_EMAIL: 'orders@example.com',
      REDIS_URL: 'redis://127.0.0.1:6379',
      RAZORPAY_KEY_ID: 'rzp_test_1',
      RAZORPAY_KEY_SECRET: 'secret',
      RAZORPAY_WEBHOOK_SECRET: 'hook',
      RAZORPAY_API_URL: 'http://127.0.0.1:9',
      TRUST_PROXY: '2',
      SEED_DEMO: 'false',
      NODE_ENV: 'production',
      TEST_PAYMENTS: 'true',
      WEB_DIR: '/srv/web',
      PUBLIC_URL: 'https://shop.example.com/',
      ALLOWED_HOSTS: 'shop.example.com',
      SHUTDOWN_GRACE: '30s',
      BACKUP_DIR: path.join(scratch, 'copies'),
      BACKUP_EVERY: '6h',
      BACKUP_KEEP: '3',
      PUSH_HOSTS: 'push.example.com',
      MAX_UNPAID_PER_SLOT: '3',
      PLACE_ORDER_LIMITS: '10/100',
    });
    expect(c).toEqual({
      port: 4123,
      host: '127.0.0.1',
      dataDir: path.join(scratch, 'd2'),
      databaseUrl: 'postgres://u@127.0.0.1:5432/shop',
      jwtSecret: 'j'.repeat(32),
      adminEmail: 'owner@example.com',
      adminPassword: 'A-strong-Pass1',
      smtpUrl: 'smtp://u:p@mail.example.com:587',
      mailFrom: 'Shop <shop@example.com>',
      shopEmail: 'orders@example.com',
      redisUrl: 'redis://127.0.0.1:6379',
      razorpay: {
        keyId: 'rzp_test_1',
        keySecret: 'secret',
        webhookSecret: 'hook',
        apiUrl: 'http://127.0.0.1:9',
      },
      mode: 'production',
      testPayments: true,
      maxUnpaidPerSlot: 3,
      placeOrderLimits: { account: 10, address: 100 },
      webDir: '/srv/web',
      seedDemo: false,
      trustProxy: 2,
      publicUrl: 'https://shop.example.com',
      allowedHosts: ['shop.example.com'],
      shutdownGraceMs: 30_000,
      backupDir: path.join(scratch, 'copies'),
      backupEvery: 6 * 60 * 60 * 1000,
      backupKeep: 3,
      mediaStore: 'database',
      vapid: null,
      vapidSubject: 'mailto:orders@example.com',
      pushHosts: ['push.example.com'],
      testPushService: null,
    });
    // Reading never writes: a folder that does not exist yet is fine (the server makes it).
    expect(existsSync(path.join(scratch, 'd2'))).toBe(false);
  });

  it('uses the documented defaults, and keeps a made JWT secret in DATA_DIR', () => {
    const dataDir = path.join(scratch, 'defaults');
    const c = loadConfig({ DATA_DIR: dataDir });
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: null,
      mailFrom: 'no-reply@localhost',
      shopEmail: null,
      razorpay: { keyId: null, keySecret: null, webhookSecret: null, apiUrl: 'https://api.razorpay.com' },
      // A shop started with no settings (`npm start`) is a production shop with no test payments.
      mode: 'production',
      testPayments: false,
      maxUnpaidPerSlot: 2,
      placeOrderLimits: { account: 20, address: 60 },
      seedDemo: true,
      trustProxy: false,
      publicUrl: null,
      allowedHosts: null,
      shutdownGraceMs: 10_000,
      backupDir: path.join(dataDir, 'backups'),
      backupEvery: null,
      backupKeep: 7,
      mediaStore: 'folder',
      vapid: null,
    });
    expect(c.jwtSecret?.length).toBeGreaterThanOrEqual(32);
    expect(readdirSync(dataDir)).toEqual(['jwt-secret']);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(c.jwtSecret);
  });

  it('on PostgreSQL keeps images and the generated secret in the database, writing nothing to DATA_DIR', () => {
    const dataDir = path.join(scratch, 'on-postgres');
    const c = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://db.internal/shop' });
    expect(c.mediaStore).toBe('database');
    // Null here: buildApp takes the secret every process shares from the database (api/db/shared-secret.ts).
    expect(c.jwtSecret).toBeNull();
    expect(existsSync(dataDir)).toBe(false);
    const set = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://db.internal/shop',
      JWT_SECRET: 'k'.repeat(40),
      MEDIA_STORE: 'folder',
    });
    expect(set).toMatchObject({ jwtSecret: 'k'.repeat(40), mediaStore: 'folder' });
  });

  const BAD: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'abc' }],
    ['MAX_UNPAID_PER_SLOT', { MAX_UNPAID_PER_SLOT: 'two' }],
    ['MAX_UNPAID_PER_SLOT', { MAX_UNPAID_PER_SLOT: '-1' }],
    ['PLACE_ORDER_LIMITS', { PLACE_ORDER_LIMITS: '20' }],
    ['PLACE_ORDER_LIMITS', { PLACE_ORDER_LIMITS: '0/60' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '-1' }],
    ['HOST', { HOST: 'http://example.com/' }],
    ['HOST', { HOST: 'two words' }],
    ['DATA_DIR', { DATA_DIR: aFile }],
    ['DATA_DIR', { DATA_DIR: path.join(aFile, 'below') }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['JWT_SECRET', { JWT_SECRET: 'short' }],
    ['MEDIA_STORE', { MEDIA_STORE: 's3' }],
    ['VAPID_PUBLIC_KEY', { VAPID_PUBLIC_KEY: 'B'.repeat(87) }],
    ['VAPID_PUBLIC_KEY', { VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: 'p'.repeat(43) }],
    ['VAPID_PRIVATE_KEY', { VAPID_PUBLIC_KEY: 'B'.repeat(87), VAPID_PRIVATE_KEY: 'x' }],
    ['VAPID_SUBJECT', { VAPID_SUBJECT: 'shop@example.com' }],
    ['ADMIN_PASSWORD', { ADMIN_EMAIL: 'a@b.co' }],
    ['ADMIN_EMAIL', { ADMIN_PASSWORD: 'A-strong-Pass1' }],
    ['ADMIN_EMAIL', { ADMIN_EMAIL: 'nobody', ADMIN_PASSWORD: 'A-strong-Pass1' }],
    ['SMTP_URL', { SMTP_URL: 'mail.example.com:25' }],
    ['MAIL_FROM', { MAIL_FROM: 'no address here' }],
    ['MAIL_FROM', { MAIL_FROM: 'Shop <not-an-address>' }],
    ['SHOP_EMAIL', { SHOP_EMAIL: 'the shop' }],
    ['REDIS_URL', { REDIS_URL: 'localhost:6379' }],
    ['RAZORPAY_KEY_SECRET', { RAZORPAY_KEY_ID: 'rzp_test_1' }],
    ['RAZORPAY_KEY_ID', { RAZORPAY_KEY_SECRET: 'secret' }],
    ['RAZORPAY_API_URL', { RAZORPAY_API_URL: 'ftp://x' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'everyone' }],
    ['SEED_DEMO', { SEED_DEMO: 'yes' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
    ['TEST_PAYMENTS', { TEST_PAYMENTS: 'yes' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'shop.example.com' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://shop.example.com/?x=1' }],
    ['BACKUP_DIR', { BACKUP_DIR: aFile }],
    ['BACKUP_EVERY', { BACKUP_EVERY: 'daily' }],
    ['BACKUP_EVERY', { BACKUP_EVERY: '0m' }],
    ['BACKUP_KEEP', { BACKUP_KEEP: '0' }],
    ['BACKUP_KEEP', { BACKUP_KEEP: 'all' }],
  ];
  for (const [name, env] of BAD) {
    it(`names ${name} when it is bad (${JSON.stringify(env)})`, () => {
      const text = problemsOf(env);
      expect(text).toContain(name);
      // Only the bad setting is named.
      expect(text.split('\n').filter((l) => l.startsWith('  - '))).toHaveLength(1);
    });
  }
});

/** Runs the real server entry point and collects how it ended. */
function startServer(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.resolve('node_modules/.bin/tsx'), ['api/server.ts'], {
      cwd: path.resolve('.'),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr, stdout }));
  });
}

describe('tsx api/server.ts with bad settings', () => {
  it('stops with exit code 1 and a message naming a bad PORT, before it touches any database', async () => {
    const dataDir = path.join(scratch, 'server-port');
    const { code, stderr, stdout } = await startServer({ PORT: 'eighty', DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(stderr).toContain('Bad settings');
    expect(stderr).toContain('PORT must be a port number (0-65535), got "eighty"');
    expect(stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    expect(stdout).not.toContain('The shop is open');
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);

  it('names every bad setting at once', async () => {
    const { code, stderr } = await startServer({
      PORT: '99999',
      HOST: 'not a host',
      DATA_DIR: aFile,
      MAIL_FROM: 'nobody',
      DATABASE_URL: 'sqlite://x',
    });
    expect(code).toBe(1);
    for (const name of ['PORT', 'HOST', 'DATA_DIR', 'MAIL_FROM', 'DATABASE_URL'])
      expect(stderr).toContain(name);
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});

describe('tsx api/server.ts when the database or the port cannot be had', () => {
  it('names DATABASE_URL when the database cannot be reached, without a stack trace', async () => {
    const { code, stderr } = await startServer({
      DATA_DIR: path.join(scratch, 'server-db'),
      // Nothing listens on port 1: the connection is refused at once.
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/shop',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('DATABASE_URL: could not open or migrate the database');
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('names PORT when the port is taken, without a stack trace', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { code, stderr } = await startServer({
        DATA_DIR: path.join(scratch, 'server-port-taken'),
        PORT: String(port),
        HOST: '127.0.0.1',
        SEED_DEMO: 'false',
      });
      expect(code).toBe(1);
      expect(stderr).toContain(`PORT/HOST: could not listen on 127.0.0.1:${port}`);
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      blocker.close();
    }
  }, 60_000);
});
