/**
 * Password hashing with scrypt at OWASP's parameters (N=2^17, r=8, p=1), in a
 * self-describing format `scrypt$N$r$p$salt$hash` (base64url), so parameters
 * can be raised later and old hashes still verify (see `needsRehash`).
 * scrypt runs on libuv's thread pool, so a hash never blocks the event loop.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { PASSWORD_MAX } from '../../domain/accounts.js';

export const SCRYPT_PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;

/**
 * The parameters of new hashes: OWASP's, always, in a shop. A test run may lower N through
 * `STOREFRONT_TEST_SCRYPT_N`, honoured only inside Vitest (`VITEST` set) and only downwards: the
 * suite makes hundreds of accounts at 128 MiB and a core-second each, which was minutes of CI.
 * It is still scrypt, salted and verified the same way; the tests of the parameters themselves
 * (tests/api/accounts-setup.test.ts) run without it.
 */
export function hashParams(env: NodeJS.ProcessEnv = process.env): { N: number; r: number; p: number } {
  const n = env.VITEST ? Number(env.STOREFRONT_TEST_SCRYPT_N) : Number.NaN;
  return Number.isInteger(n) && n >= 1024 && n < SCRYPT_PARAMS.N && (n & (n - 1)) === 0
    ? { ...SCRYPT_PARAMS, N: n }
    : SCRYPT_PARAMS;
}
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/**
 * At most this many hashes run at once. Each takes 128 MiB and a thread of
 * libuv's pool (4 by default), which file reads and compression share: a burst
 * of logins waits its turn here instead of starving them or the memory.
 */
const MAX_PARALLEL_HASHES = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    // Hand the slot straight to the next waiter, or free it.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

function derive(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; Node's default cap (32 MiB) is below OWASP's parameters.
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return withHashSlot(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) =>
          err ? reject(err) : resolve(key),
        );
      }),
  );
}

/**
 * The stored password of an account that has not proved its mailbox: not a hash, so no password
 * ever matches it. A pending registration's password lives with its attempt (`registration_codes`).
 */
export const UNVERIFIED_PASSWORD = '!unverified';

export async function hashPassword(password: string): Promise<string> {
  if (password.length > PASSWORD_MAX) throw new Error('password longer than the maximum reached the hasher');
  const salt = randomBytes(SALT_LENGTH);
  const params = hashParams();
  const key = await derive(password, salt, params);
  const { N, r, p } = params;
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

interface Parsed {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): Parsed | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  // Refuse parameters that would let a tampered row make us allocate gigabytes.
  if (![N, r, p].every(Number.isSafeInteger) || N < 2 || N > 2 ** 20 || r < 1 || r > 32 || p < 1 || p > 16)
    return null;
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const key = Buffer.from(parts[5] ?? '', 'base64url');
  if (salt.length === 0 || key.length === 0) return null;
  return { N, r, p, salt, key };
}

/** Whether `password` matches `stored`, compared in constant time. Unusable stored values never match. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (password.length > PASSWORD_MAX) return false;
  const parsed = parse(stored);
  if (!parsed) {
    // Spend the same time as a real check, so a placeholder hash is not told apart by timing.
    await verifyDummy(password);
    return false;
  }
  const key = await derive(password, parsed.salt, parsed);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** Whether a stored hash was made with weaker parameters than today's (rehash it at the next login). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  const today = hashParams();
  return !parsed || parsed.N < today.N || parsed.r < today.r || parsed.p < today.p;
}

let dummy: Promise<string> | null = null;

/**
 * Spends the time of one real verification and answers false. Used when the
 * email is unknown, so the answer's timing does not tell whether an account exists.
 */
export async function verifyDummy(password: string): Promise<false> {
  dummy ??= hashPassword('dummy-Password-1!');
  const stored = await dummy;
  const parsed = parse(stored) as Parsed;
  await derive(password.slice(0, PASSWORD_MAX), parsed.salt, parsed);
  return false;
}
