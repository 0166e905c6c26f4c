/**
 * What the outbox's and the request queue's unit tests share: a device database of their own, a
 * session on it, and the sender's env over a fake shop's fetch with a clock the test moves.
 */
import { ShopDatabase } from '../../sw/db.js';
import type { OutboxEnv } from '../../sw/outbox.js';

/** A token of `userId` that the device reads as live for an hour (`tag` makes another one). */
export function deviceToken(userId: number, tag = 'a'): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256' })}.${b64({ sub: userId, exp: Math.floor(Date.now() / 1000) + 3600, tag })}.sig`;
}

/** Signs `userId` in on the device (the session row the senders read); returns the token. */
export async function signInOn(store: ShopDatabase, userId = 7, tag = 'a'): Promise<string> {
  const token = deviceToken(userId, tag);
  await store.session.put({
    key: 'current',
    token,
    role: '0',
    userId,
    email: 'asha@example.com',
    phone: '9876543210',
    expiresAt: null,
  });
  return token;
}

/** A fresh device and the senders' env on it; `now` is read each time (the test's clock). */
export function testDevice(
  name: string,
  fetch: typeof globalThis.fetch,
  now: () => number,
): { store: ShopDatabase; env: OutboxEnv } {
  const store = new ShopDatabase(`${name}-${Math.random()}`);
  return {
    store,
    env: {
      db: store,
      fetch,
      base: 'http://shop.test/api',
      now,
      random: () => 1,
      locks: null,
      timeoutMs: 1000,
    },
  };
}
