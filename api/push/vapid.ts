import type { Kysely } from 'kysely';
import webpush from 'web-push';
import type { Database } from '../db/schema.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The shop's VAPID key pair (RFC 8292): from VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when set, or made
 * once and kept in the database, so every process signs with one pair and the devices' subscriptions
 * (made against its public key) stay valid across restarts. As with the session secret, the first
 * process to insert wins and the others read its pair back.
 */
export async function vapidKeys(db: Kysely<Database>, configured: VapidKeys | null): Promise<VapidKeys> {
  if (configured) return configured;
  const made = webpush.generateVAPIDKeys();
  await db
    .insertInto('shop_secrets')
    .values({ name: 'vapid', value: JSON.stringify(made), created_at: Date.now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('shop_secrets')
    .select('value')
    .where('name', '=', 'vapid')
    .executeTakeFirstOrThrow();
  return JSON.parse(row.value) as VapidKeys;
}
