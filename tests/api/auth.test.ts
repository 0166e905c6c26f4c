import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../api/db/database.js';
import { SESSION_EXPIRED, sessionRowId } from '../../api/plugins/auth.js';
import { messages } from '../../domain/messages.js';
import { ROLE_CLAIM } from '../../domain/roles.js';
// Every answer checked against its endpoint's contract, as in makeTestApp.
import { buildTestApp as buildApp, createUserWithToken, testConfig } from '../support/app.js';
import { DIALECTS, openTestDb } from '../support/databases.js';

/**
 * Attacks on the bearer token, on every dialect: forged tokens (alg none,
 * wrong secret, an edited role claim under the original signature, another
 * HMAC algorithm), expired tokens and sessions, sessions of someone else,
 * a shopper on an admin route, a demoted admin. Tokens are built by hand here
 * (base64url and HMAC), so each attack is exactly the bytes an attacker sends.
 */
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function forge(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  secret: string | null,
): string {
  const head = b64(header);
  const body = b64(payload);
  if (secret === null) return `${head}.${body}.`;
  const alg = header.alg === 'HS512' ? 'sha512' : 'sha256';
  return `${head}.${body}.${createHmac(alg, secret).update(`${head}.${body}`).digest('base64url')}`;
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
}

for (const dialect of DIALECTS) {
  describe(`tokens and roles on ${dialect}`, () => {
    let app: FastifyInstance;
    let db: Db;
    const config = testConfig();
    const secret = config.jwtSecret;

    beforeAll(async () => {
      db = await openTestDb(dialect);
      app = await buildApp({ config, db });
      // Test-only routes: one behind the admin check, one behind the login check.
      app.get('/api/test-only/admin', { preHandler: app.requireAdmin }, async () => ({
        isSuccess: true,
        data: 'admin area',
        sys_message: 'Success',
      }));
      app.get('/api/test-only/me', { preHandler: app.authenticate }, async (request) => ({
        isSuccess: true,
        data: request.user,
        sys_message: 'Success',
      }));
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
      await db.destroy();
    });

    const get = (url: string, token?: string, raw?: string) =>
      app.inject({
        method: 'GET',
        url,
        headers:
          raw !== undefined ? { authorization: raw } : token ? { authorization: `Bearer ${token}` } : {},
      });

    function expectRefused(res: Awaited<ReturnType<typeof get>>, status: number) {
      expect(res.statusCode).toBe(status);
      const body = res.json();
      expect(body.isSuccess).toBe(false);
      expect(body.data).toBeNull();
      expect(typeof body.sys_message).toBe('string');
    }

    it('lets an admin token into admin routes and keeps a shopper token out (403)', async () => {
      const admin = await createUserWithToken(app, { role: '1' });
      const shopper = await createUserWithToken(app, { role: '0' });
      expect((await get('/api/test-only/admin', admin.token)).statusCode).toBe(200);
      expectRefused(await get('/api/test-only/admin', shopper.token), 403);
      expect((await get('/api/test-only/me', shopper.token)).statusCode).toBe(200);
      expectRefused(await get('/api/test-only/admin'), 401);
      expectRefused(await get('/api/test-only/me'), 401);
      expect((await get('/api/test-only/me')).json().sys_message).toBe(messages.loginFirst);
    });

    it('refuses alg "none", a wrong secret, another algorithm and an edited role claim', async () => {
      const shopper = await createUserWithToken(app, { role: '0' });
      const claims = claimsOf(shopper.token);
      const promoted = { ...claims, role: '1', [ROLE_CLAIM]: '1' };

      const attacks = {
        algNone: forge({ alg: 'none', typ: 'JWT' }, promoted, null),
        algNoneUnchanged: forge({ alg: 'none', typ: 'JWT' }, claims, null),
        algNoneUpper: forge({ alg: 'NONE', typ: 'JWT' }, claims, null),
        wrongSecret: forge(
          { alg: 'HS256', typ: 'JWT' },
          promoted,
          'another-secret-another-secret-0123456789',
        ),
        otherAlgorithm: forge({ alg: 'HS512', typ: 'JWT' }, claims, secret),
        roleEditedKeepingSignature: (() => {
          const [head, , signature] = shopper.token.split('.');
          return `${head}.${b64(promoted)}.${signature}`;
        })(),
        truncated: shopper.token.slice(0, -4),
        garbage: 'not.a.token',
      };
      for (const [name, token] of Object.entries(attacks)) {
        const res = await get('/api/test-only/admin', token);
        expect({ name, status: res.statusCode }).toEqual({ name, status: 401 });
        expect(res.json().sys_message).toBe('Please log in again.');
        expectRefused(res, 401);
        expectRefused(await get('/api/test-only/me', token), 401);
      }
      // The honest token still works: the refusals above were about the forgery.
      expect((await get('/api/test-only/me', shopper.token)).statusCode).toBe(200);
      // A properly signed token made by us with role "1" claims is still not an admin:
      // the role is read from the user's row, not believed from the token.
      const signedPromoted = forge({ alg: 'HS256', typ: 'JWT' }, promoted, secret);
      expectRefused(await get('/api/test-only/admin', signedPromoted), 403);
    });

    it('refuses malformed authorization headers with 401, never a 500', async () => {
      for (const raw of [
        'Bearer',
        'Bearer ',
        'Basic dXNlcjpwYXNz',
        'Bearer a.b',
        'Bearer 😀.😀.😀',
        'x'.repeat(5000),
      ]) {
        expectRefused(await get('/api/test-only/me', undefined, raw), 401);
      }
    });

    it('refuses an expired token even when its session is live', async () => {
      const shopper = await createUserWithToken(app, { role: '0' });
      const claims = claimsOf(shopper.token);
      const now = Math.floor(Date.now() / 1000);
      const expired = forge(
        { alg: 'HS256', typ: 'JWT' },
        { ...claims, iat: now - 7200, exp: now - 3600 },
        secret,
      );
      const refused = await get('/api/test-only/me', expired);
      expectRefused(refused, 401);
      expect(refused.json().sys_message).toBe(SESSION_EXPIRED);
      // The same claims with a future expiry pass: the refusal was the expiry.
      const fresh = forge({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now, exp: now + 3600 }, secret);
      expect((await get('/api/test-only/me', fresh)).statusCode).toBe(200);
    });

    it('refuses a token whose session expired, vanished, or belongs to someone else', async () => {
      const a = await createUserWithToken(app, { role: '0' });
      const b = await createUserWithToken(app, { role: '1' });
      const aClaims = claimsOf(a.token);
      const bClaims = claimsOf(b.token);
      const now = Math.floor(Date.now() / 1000);
      const sign = (p: Record<string, unknown>) => forge({ alg: 'HS256', typ: 'JWT' }, p, secret);

      // A's identity with B's (admin) session id.
      expectRefused(await get('/api/test-only/admin', sign({ ...aClaims, sid: bClaims.sid, iat: now })), 401);
      // A session id that never existed.
      expectRefused(
        await get('/api/test-only/me', sign({ ...aClaims, sid: 'no-such-session', iat: now })),
        401,
      );
      expectRefused(await get('/api/test-only/me', sign({ ...aClaims, sid: undefined, iat: now })), 401);

      // The session row's own expiry ends it even while the token's exp is in the future.
      await app.db
        .updateTable('sessions')
        .set({ expires_at: Date.now() - 1 })
        .where('id', '=', sessionRowId(String(aClaims.sid)))
        .execute();
      expectRefused(await get('/api/test-only/me', a.token), 401);

      // A revoked session (what logout and reset do) is refused.
      await app.sessions.revoke(sessionRowId(String(bClaims.sid)));
      expectRefused(await get('/api/test-only/admin', b.token), 401);
    });

    it('takes admin rights away from a demoted admin at once', async () => {
      const admin = await createUserWithToken(app, { role: '1' });
      expect((await get('/api/test-only/admin', admin.token)).statusCode).toBe(200);
      await app.db.updateTable('users').set({ role: '0' }).where('id', '=', admin.id).execute();
      expectRefused(await get('/api/test-only/admin', admin.token), 403);
      // Deleting the user ends the session with it.
      await app.db.deleteFrom('users').where('id', '=', admin.id).execute();
      expectRefused(await get('/api/test-only/me', admin.token), 401);
    });
  });
}
