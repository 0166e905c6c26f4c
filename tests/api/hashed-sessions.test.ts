import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionRowId } from '../../api/plugins/auth.js';
import { ADMIN_ROLE, ROLE_CLAIM } from '../../domain/roles.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/**
 * Sessions are stored by the SHA-256 of their token's `sid` (api/plugins/auth.ts): the row's id
 * signs nothing. Migration 20261127_1300 hashes the rows made before it, and the push
 * subscriptions that name them, so a shopper signed in before the upgrade stays signed in, keeps
 * their device, and a logout still ends both. Both databases.
 */
const MIGRATION = pathToFileURL(
  path.join(process.cwd(), 'api/db/migrations/20261127_1300_hashed_sessions.ts'),
).href;

for (const dialect of DIALECTS) {
  describe(`hashed session ids on ${dialect}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await makeTestApp(dialect);
    });
    afterAll(async () => t.close());

    const profile = (token: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/GetUserProfile',
        headers: { authorization: `Bearer ${token}` },
      });

    it('stores the hash of the sid, and a token signed with the stored id is refused', async () => {
      const user = await createUserWithToken(t.app);
      const sid = String(t.app.jwt.decode<{ sid: string }>(user.token)?.sid);
      const rows = await t.app.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', user.id)
        .execute();
      expect(rows).toEqual([{ id: createHash('sha256').update(sid).digest('hex') }]);
      expect(rows[0]?.id).toBe(sessionRowId(sid));
      expect((await profile(user.token)).statusCode).toBe(200);
      // What a copy of the table gives: the stored id, signed with the shop's own secret.
      const forged = t.app.jwt.sign({
        sub: String(user.id),
        email: user.email,
        role: '0',
        [ROLE_CLAIM]: '0',
        sid: rows[0]?.id ?? '',
      });
      const res = await profile(forged);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ isSuccess: false, data: null });
    });

    it('the migration hashes the sessions made before it and their push subscriptions: they go on working', async () => {
      const admin = await createUserWithToken(t.app, { role: ADMIN_ROLE });
      // A session and a device as the code before the migration stored them: the raw sid as the id.
      const sid = randomBytes(24).toString('base64url');
      const now = Date.now();
      await t.app.db
        .insertInto('sessions')
        .values({
          id: sid,
          user_id: admin.id,
          created_at: now,
          expires_at: now + 3_600_000,
          revoked_at: null,
        })
        .execute();
      const endpoint = `https://fcm.googleapis.com/fcm/send/${randomBytes(8).toString('hex')}`;
      await t.app.db
        .insertInto('push_subscriptions')
        .values({
          user_id: admin.id,
          session_id: sid,
          endpoint,
          p256dh: 'BOr6P7HJQz8h0X9qYb3E4nqM2pA1w5L8vN7sK0dT3yR6uG9iC2eF5hJ8kM1oQ4tW7zX0aS3dV6bN9mP2rU5xY8c',
          auth: 'c2VjcmV0LWF1dGgtMTY',
          created_at: now,
        })
        .execute();
      const token = t.app.jwt.sign({
        sub: String(admin.id),
        email: admin.email,
        role: ADMIN_ROLE,
        [ROLE_CLAIM]: ADMIN_ROLE,
        sid,
      });
      // Before the migration the row is not found under the hash: the upgrade needs it.
      expect((await profile(token)).statusCode).toBe(401);

      const migration = (await import(MIGRATION)) as { up(db: Kysely<unknown>): Promise<void> };
      await migration.up(t.app.db as unknown as Kysely<unknown>);

      const hashed = sessionRowId(sid);
      expect(await t.app.db.selectFrom('sessions').select('id').where('id', '=', sid).execute()).toEqual([]);
      expect(
        await t.app.db.selectFrom('sessions').select('id').where('id', '=', hashed).executeTakeFirst(),
      ).toEqual({ id: hashed });
      expect(
        await t.app.db
          .selectFrom('push_subscriptions')
          .select('session_id')
          .where('endpoint', '=', endpoint)
          .executeTakeFirst(),
      ).toEqual({ session_id: hashed });
      // The token from before the upgrade still signs in, and is still an admin's.
      expect((await profile(token)).statusCode).toBe(200);
      expect(
        (
          await t.app.inject({
            method: 'GET',
            url: '/api/admin/backups',
            headers: { authorization: `Bearer ${token}` },
          })
        ).statusCode,
      ).toBe(200);
      // Logout ends that session and forgets its device, through the stored (hashed) id.
      const out = await t.app.inject({
        method: 'POST',
        url: '/api/Logout',
        headers: { authorization: `Bearer ${token}` },
        payload: {},
      });
      expect(out.statusCode, out.body).toBe(200);
      expect((await profile(token)).statusCode).toBe(401);
      expect(
        await t.app.db
          .selectFrom('push_subscriptions')
          .select('id')
          .where('endpoint', '=', endpoint)
          .execute(),
      ).toEqual([]);
    });
  });
}
