/**
 * Settings are read from the environment once, at start, and checked together:
 * a bad setting stops the server with a message naming every bad one, instead
 * of failing later in the middle of a request.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseDuration } from '../domain/backups.js';
import type { MediaStoreKind } from './images/media-store.js';
import { isHost } from './pages/origin.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** A postgres:// URL switches the database to PostgreSQL; otherwise SQLite under dataDir. */
  databaseUrl: string | null;
  /**
   * JWT_SECRET, or the secret generated once and kept in `DATA_DIR/jwt-secret` (SQLite). Null on
   * PostgreSQL without JWT_SECRET: then `buildApp` takes the one kept in the database, so every
   * process signs and checks with the same secret (api/db/shared-secret.ts).
   */
  jwtSecret: string | null;
  /**
   * MEDIA_STORE: where product images live (api/images/media-store.ts). `database` by default on
   * PostgreSQL (several processes, each with its own disk), `folder` (DATA_DIR/media) on SQLite.
   */
  mediaStore: MediaStoreKind;
  /**
   * Web Push (api/push): VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (base64url, set both), or null to
   * use the pair generated once and kept in the database; VAPID_SUBJECT names the shop to the
   * push services (`mailto:` SHOP_EMAIL, else ADMIN_EMAIL, by default).
   */
  vapid: { publicKey: string; privateKey: string } | null;
  vapidSubject: string;
  /**
   * Web Push (api/push/README.md): push service hosts the operator allows besides the browser
   * vendors' (PUSH_HOSTS, comma-separated; `*.example.com` for any name under it), and the one
   * loopback push service a test may use (TEST_PUSH_SERVICE=127.0.0.1:PORT; never in production).
   */
  pushHosts: string[];
  testPushService: { host: string; port: number } | null;
  adminEmail: string | null;
  adminPassword: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  /**
   * Where the contact form's messages go (SHOP_EMAIL); null to send them to the profile's customer
   * care email, else ADMIN_EMAIL (`api/contact`).
   */
  shopEmail: string | null;
  redisUrl: string | null;
  razorpay: {
    keyId: string | null;
    keySecret: string | null;
    webhookSecret: string | null;
    apiUrl: string;
  };
  /**
   * development | test | production. Production unless NODE_ENV says otherwise, so a shop started
   * without settings exposes no development helper; only development logs one-time codes (and only
   * without SMTP_URL).
   */
  mode: 'development' | 'test' | 'production';
  /** TEST_PAYMENTS=true: the in-process test payment provider (no money moves), in any mode; never by default. */
  testPayments: boolean;
  /** MAX_UNPAID_PER_SLOT (see `readMaxUnpaidPerSlot`). */
  maxUnpaidPerSlot: number;
  /** PLACE_ORDER_LIMITS (see `readPlaceOrderLimits`): orders a minute per account and per address. */
  placeOrderLimits: { account: number; address: number };
  /** Where the built PWA lives; the server serves it when the folder exists. */
  webDir: string;
  /** Load the demo catalogue into an empty database at start. */
  seedDemo: boolean;
  /**
   * Which proxies may name the client's address in X-Forwarded-For (false: none, a number: that
   * many hops, or a list of addresses/CIDRs). Per-address rate limits depend on it: trusting
   * every proxy would let anyone pick their address.
   */
  trustProxy: boolean | number | string;
  /**
   * The shop's public origin (PUBLIC_URL, e.g. https://shop.example.com), without a trailing
   * slash; null when unset. The OpenAPI description names it as its server, so tools built from
   * the description call the shop wherever the description was read.
   */
  publicUrl: string | null;
  /**
   * ALLOWED_HOSTS: the Hosts (name, with its port unless 80/443) that absolute URLs may be made
   * from when PUBLIC_URL is unset; null (unset): `localhost` and the listening address, each with
   * the port listened on. Any other Host gets the listening address (api/pages/origin.ts).
   */
  allowedHosts: string[] | null;
  /** SHUTDOWN_GRACE in ms: how long a stopping process may take to finish what it has begun (10 s). */
  shutdownGraceMs: number;
  /** Backups (api/backup/README.md): where archives go (BACKUP_DIR, default DATA_DIR/backups). */
  backupDir: string;
  /** BACKUP_EVERY in ms: the running server backs itself up this often; null: only by hand. */
  backupEvery: number | null;
  /** BACKUP_KEEP: how many of the newest archives the schedule keeps (default 7). */
  backupKeep: number;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Bad settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const str = (name: string): string | null => {
    const value = env[name]?.trim();
    return value ? value : null;
  };

  const port = Number(str('PORT') ?? '3000');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`PORT must be a port number (0-65535), got "${env.PORT}"`);

  const host = str('HOST') ?? '0.0.0.0';
  if (!/^[A-Za-z0-9._:%-]+$/.test(host))
    problems.push(`HOST must be a host name or an IP address, got "${env.HOST}"`);
  const dataDir = path.resolve(str('DATA_DIR') ?? './data');
  const dataDirProblem = unwritableFolder(dataDir);
  if (dataDirProblem) problems.push(`DATA_DIR ${dataDirProblem}`);

  const databaseUrl = str('DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite database)');
  }

  const mediaStore = (str('MEDIA_STORE') ?? (databaseUrl ? 'database' : 'folder')) as MediaStoreKind;
  if (!['folder', 'database'].includes(mediaStore))
    problems.push(`MEDIA_STORE must be folder or database, got "${env.MEDIA_STORE}"`);

  const vapidPublic = str('VAPID_PUBLIC_KEY');
  const vapidPrivate = str('VAPID_PRIVATE_KEY');
  if ((vapidPublic === null) !== (vapidPrivate === null))
    problems.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together');
  if (vapidPublic && !/^[A-Za-z0-9_-]{87}$/.test(vapidPublic))
    problems.push('VAPID_PUBLIC_KEY must be a P-256 public key, base64url (87 characters)');
  if (vapidPrivate && !/^[A-Za-z0-9_-]{43}$/.test(vapidPrivate))
    problems.push('VAPID_PRIVATE_KEY must be a P-256 private key, base64url (43 characters)');
  const vapidSubject = str('VAPID_SUBJECT');
  if (vapidSubject && !/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(vapidSubject))
    problems.push('VAPID_SUBJECT must be a mailto: address or an https: URL');

  const mode = (str('NODE_ENV') ?? 'production') as Config['mode'];
  if (!['development', 'test', 'production'].includes(mode))
    problems.push(`NODE_ENV must be development, test or production, got "${env.NODE_ENV}"`);

  const pushHosts = (str('PUSH_HOSTS') ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const h of pushHosts)
    if (!/^(\*\.)?([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z]([a-z0-9-]*[a-z0-9])?$/.test(h))
      problems.push(`PUSH_HOSTS must list host names (or *.example.com), got "${h}"`);
  const testPush = str('TEST_PUSH_SERVICE');
  const testPushMatch = testPush ? /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}):(\d{1,5})$/.exec(testPush) : null;
  if (testPush && (!testPushMatch || Number(testPushMatch[2]) > 65535))
    problems.push(
      `TEST_PUSH_SERVICE must be a loopback address and port, such as 127.0.0.1:8443, got "${testPush}"`,
    );
  if (testPush && mode === 'production')
    problems.push('TEST_PUSH_SERVICE is for tests only and cannot be set in production');

  let jwtSecret = str('JWT_SECRET');
  if (jwtSecret && jwtSecret.length < 32) problems.push('JWT_SECRET must be at least 32 characters long');

  const adminEmail = str('ADMIN_EMAIL');
  const adminPassword = str('ADMIN_PASSWORD');
  if ((adminEmail === null) !== (adminPassword === null))
    problems.push('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  if (adminEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail))
    problems.push('ADMIN_EMAIL must be an email address');

  const smtpUrl = str('SMTP_URL');
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) problems.push('SMTP_URL must be an smtp:// or smtps:// URL');
  const redisUrl = str('REDIS_URL');
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must be a redis:// URL');

  const keyId = str('RAZORPAY_KEY_ID');
  const keySecret = str('RAZORPAY_KEY_SECRET');
  if ((keyId === null) !== (keySecret === null))
    problems.push('RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET must be set together');
  const apiUrl = str('RAZORPAY_API_URL') ?? 'https://api.razorpay.com';
  if (!/^https?:\/\//.test(apiUrl)) problems.push('RAZORPAY_API_URL must be an http(s) URL');

  const testPayments = str('TEST_PAYMENTS') ?? 'false';
  if (!['true', 'false'].includes(testPayments)) problems.push('TEST_PAYMENTS must be true or false');

  const maxUnpaidPerSlot = readMaxUnpaidPerSlot(str('MAX_UNPAID_PER_SLOT'), problems);
  const placeOrderLimits = readPlaceOrderLimits(str('PLACE_ORDER_LIMITS'), problems);

  const seed = str('SEED_DEMO') ?? 'true';
  if (!['true', 'false'].includes(seed)) problems.push('SEED_DEMO must be true or false');

  const trustRaw = str('TRUST_PROXY') ?? 'false';
  let trustProxy: Config['trustProxy'] = trustRaw;
  if (trustRaw === 'true' || trustRaw === 'false') trustProxy = trustRaw === 'true';
  else if (/^\d+$/.test(trustRaw)) trustProxy = Number(trustRaw);
  else if (!/^[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*$/.test(trustRaw))
    problems.push('TRUST_PROXY must be true, false, a number of hops or a list of proxy addresses');

  const mailFrom = str('MAIL_FROM');
  if (mailFrom && !/^([^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(mailFrom))
    problems.push('MAIL_FROM must be an email address or "Name <address>"');

  const shopEmail = str('SHOP_EMAIL');
  if (shopEmail !== null && !/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(shopEmail))
    problems.push('SHOP_EMAIL must be an email address');

  const publicUrl = str('PUBLIC_URL')?.replace(/\/+$/, '') ?? null;
  if (publicUrl !== null && !isOrigin(publicUrl))
    problems.push(
      `PUBLIC_URL must be the shop's http(s) address, such as https://shop.example.com, got "${env.PUBLIC_URL}"`,
    );

  const allowedRaw = str('ALLOWED_HOSTS');
  const allowedHosts = allowedRaw
    ? allowedRaw
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean)
    : null;
  if (allowedHosts && (!allowedHosts.length || !allowedHosts.every(isHost)))
    problems.push(
      `ALLOWED_HOSTS must be host names separated by commas, each with its port unless 80 or 443 (such as shop.example.com,localhost:3000), got "${env.ALLOWED_HOSTS}"`,
    );
  const graceRaw = str('SHUTDOWN_GRACE') ?? '10s';
  const shutdownGraceMs = parseDuration(graceRaw);
  if (shutdownGraceMs === null)
    problems.push(`SHUTDOWN_GRACE must be a duration such as 10s or 1m, got "${env.SHUTDOWN_GRACE}"`);

  const backupDirSet = str('BACKUP_DIR');
  const backupDir = path.resolve(backupDirSet ?? path.join(dataDir, 'backups'));
  // The default lives in DATA_DIR, checked above: a bad DATA_DIR is named once.
  const backupDirProblem = backupDirSet ? unwritableFolder(backupDir) : null;
  if (backupDirProblem) problems.push(`BACKUP_DIR ${backupDirProblem}`);
  const everyRaw = str('BACKUP_EVERY');
  const backupEvery = everyRaw === null ? null : parseDuration(everyRaw);
  if (everyRaw !== null && (backupEvery === null || backupEvery < 1000))
    problems.push(`BACKUP_EVERY must be a duration such as 30m, 6h or 1d, got "${env.BACKUP_EVERY}"`);
  const keepRaw = str('BACKUP_KEEP') ?? '7';
  const backupKeep = Number(keepRaw);
  if (!/^\d{1,4}$/.test(keepRaw) || backupKeep < 1)
    problems.push(
      `BACKUP_KEEP must be a whole number of backups to keep (1 or more), got "${env.BACKUP_KEEP}"`,
    );

  if (problems.length) throw new ConfigError(problems);

  // On PostgreSQL the generated secret lives in the database, shared by every process (see jwtSecret).
  if (!jwtSecret && !databaseUrl) jwtSecret = readOrCreateSecret(dataDir);

  return {
    port,
    host,
    dataDir,
    databaseUrl,
    jwtSecret,
    mediaStore,
    vapid: vapidPublic && vapidPrivate ? { publicKey: vapidPublic, privateKey: vapidPrivate } : null,
    vapidSubject: vapidSubject ?? `mailto:${shopEmail ?? adminEmail ?? 'no-reply@localhost'}`,
    pushHosts,
    testPushService: testPushMatch ? { host: testPushMatch[1] ?? '', port: Number(testPushMatch[2]) } : null,
    adminEmail,
    adminPassword,
    smtpUrl,
    // The sender's name is the shop's, from its profile when each mail is sent (api/mail).
    mailFrom: mailFrom ?? 'no-reply@localhost',
    shopEmail,
    redisUrl,
    razorpay: { keyId, keySecret, webhookSecret: str('RAZORPAY_WEBHOOK_SECRET'), apiUrl },
    mode,
    testPayments: testPayments === 'true',
    maxUnpaidPerSlot,
    placeOrderLimits,
    webDir: path.resolve(str('WEB_DIR') ?? './dist'),
    seedDemo: seed === 'true',
    trustProxy,
    publicUrl,
    allowedHosts,
    shutdownGraceMs: shutdownGraceMs ?? 10_000,
    backupDir,
    backupEvery,
    backupKeep,
  };
}

// ---- Orders: how many places of a capped slot one account may hold unpaid, and how fast it orders ----

/**
 * MAX_UNPAID_PER_SLOT (default 2): in a slot with a capacity, the orders an account may hold on one
 * date without paying (not cancelled). Paid orders are not counted: one account can still send
 * gifts to several people. See api/slots/README.md.
 */
function readMaxUnpaidPerSlot(raw: string | null, problems: string[]): number {
  const value = Number(raw ?? '2');
  if (raw !== null && !/^\d{1,4}$/.test(raw)) {
    problems.push(`MAX_UNPAID_PER_SLOT must be a whole number of orders (0 or more), got "${raw}"`);
    return 2;
  }
  return value;
}

/**
 * PLACE_ORDER_LIMITS, `<per account>/<per address>` orders a minute (default `20/60`): a script
 * cannot book a date's places in a burst, and a phone's outbox that meets the limit waits for the
 * 429's Retry-After. A shop whose shoppers share one address (an office behind one NAT) may raise
 * the second figure.
 */
function readPlaceOrderLimits(raw: string | null, problems: string[]): Config['placeOrderLimits'] {
  const found = /^(\d{1,7})\/(\d{1,7})$/.exec(raw ?? '20/60');
  if (!found || Number(found[1]) < 1 || Number(found[2]) < 1) {
    problems.push(
      `PLACE_ORDER_LIMITS must be orders a minute per account and per address, such as 20/60, got "${raw}"`,
    );
    return { account: 20, address: 60 };
  }
  return { account: Number(found[1]), address: Number(found[2]) };
}

/** An http(s) address with no query or fragment (a path is allowed: the shop may live under one). */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash && !url.username
    );
  } catch {
    return false;
  }
}

/**
 * Why DATA_DIR cannot hold the shop's files, or null when it can. Checked
 * without writing: the folder, or the nearest folder above it that exists
 * (the server creates the rest), must be a folder this process may write.
 */
function unwritableFolder(dir: string): string | null {
  let at = dir;
  while (!existsSync(at)) {
    const up = path.dirname(at);
    if (up === at) break;
    at = up;
  }
  if (!statSync(at).isDirectory()) return `must be a folder, but ${at} is a file`;
  try {
    accessSync(at, constants.W_OK);
  } catch {
    return `must be a folder the server may write to (${at} is not writable)`;
  }
  return null;
}

/** The secret an earlier start generated into the data folder, if any. */
export function existingSecret(dataDir: string): string | null {
  const file = path.join(dataDir, 'jwt-secret');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || null : null;
}

/** A secret made once and kept in the data folder, so tokens survive restarts without any setup. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  const existing = existingSecret(dataDir);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
