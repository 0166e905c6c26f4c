/**
 * Sessions are signed tokens (HS256 only, with `exp`) backed by a row in
 * `sessions`: a token whose row is revoked (logout, password reset) or gone is
 * refused, and the role is read from the user's row, so a demoted admin loses
 * admin routes at once. Any API process can check any token: nothing lives in memory.
 *
 * The row's id is the SHA-256 of the token's `sid`, never the `sid` itself: a copy of the
 * database (a backup, a dump) names no session a token could be signed for, even by someone who
 * also holds the secret. `request.user.sessionId` is that stored id, so whatever keys rows by the
 * session (logout, push subscriptions) uses the hash throughout.
 */
import { createHash, randomBytes } from 'node:crypto';
import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '../../domain/messages.js';
import { ADMIN_ROLE, ROLE_CLAIM } from '../../domain/roles.js';
import { forbidden, unauthorized } from '../http/errors.js';

export interface TokenClaims {
  sub: string;
  email: string;
  role: string;
  [ROLE_CLAIM]: string;
  sid: string;
}

export interface AuthUser {
  id: number;
  email: string;
  role: string;
  /** The session's row id in `sessions` (the hash of the token's `sid`). */
  sessionId: string;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: AuthUser;
  }
}

export interface SessionUser {
  id: number;
  email: string;
  role: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * preHandler: a valid, live session; sets `request.user`. Every route that needs a session
     * passes here (`requireAdmin` too), so this is the one place its answers become no-store.
     */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** preHandler: a live session whose user has the admin role "1". */
    requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    sessions: {
      /** Opens a session and signs its token; `sessionId` is the row's (hashed) id. */
      issue(user: SessionUser): Promise<{ token: string; sessionId: string; expiresAt: number }>;
      revoke(sessionId: string): Promise<void>;
      /** Ends every session of a user, except `keep` when given. */
      revokeAllFor(userId: number, keep?: string): Promise<void>;
    };
  }
}

export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_EXPIRED = 'Your session has expired. Please log in again.';
export const SESSION_ENDED = 'Your session has ended. Please log in again.';

/**
 * The `sessions.id` of a token's `sid`. A plain hash is enough: a `sid` is 192 random bits, so
 * there is nothing to guess, only nothing to copy. Migration 20261127_1300 hashed the rows
 * made before with the same function.
 */
export function sessionRowId(sid: string): string {
  return createHash('sha256').update(sid, 'utf8').digest('hex');
}

export default fp(
  async (app: FastifyInstance, opts: { secret: string }) => {
    await app.register(fastifyJwt, {
      secret: opts.secret,
      sign: { algorithm: 'HS256', expiresIn: Math.floor(SESSION_TTL_MS / 1000) },
      // Pinning the algorithm refuses `alg: none` and algorithm-confusion tokens.
      verify: { algorithms: ['HS256'] },
    });

    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      // An answer to a session carries an account's data (orders, addresses, the admin's
      // customers), or says the session is gone: no cache between the shopper and us may keep
      // it, refusals included, so it is set before anything can fail.
      reply.header('cache-control', 'no-store');
      let claims: TokenClaims;
      try {
        claims = await request.jwtVerify<TokenClaims>();
      } catch (err) {
        // Only an honest expiry is called one; a forged or broken token is just refused.
        const code = (err as { code?: string }).code;
        if (code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED') throw unauthorized(SESSION_EXPIRED);
        if (!request.headers.authorization || code === 'FST_JWT_NO_AUTHORIZATION_IN_HEADER')
          throw unauthorized(messages.loginFirst);
        throw unauthorized('Please log in again.');
      }
      const row = await app.db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['users.id', 'users.email', 'users.role', 'sessions.revoked_at', 'sessions.expires_at'])
        .where('sessions.id', '=', sessionRowId(String(claims.sid ?? '')))
        .executeTakeFirst();
      if (!row || row.revoked_at !== null || row.expires_at <= Date.now() || String(row.id) !== claims.sub) {
        throw unauthorized(SESSION_ENDED);
      }
      request.user = { id: row.id, email: row.email, role: row.role, sessionId: sessionRowId(claims.sid) };
    });

    app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
      await app.authenticate(request, reply);
      if (request.user.role !== ADMIN_ROLE) throw forbidden();
    });

    app.decorate('sessions', {
      async issue(user: SessionUser) {
        const sid = randomBytes(24).toString('base64url');
        const sessionId = sessionRowId(sid);
        const now = Date.now();
        const expiresAt = now + SESSION_TTL_MS;
        await app.db
          .insertInto('sessions')
          .values({
            id: sessionId,
            user_id: user.id,
            created_at: now,
            expires_at: expiresAt,
            revoked_at: null,
          })
          .execute();
        const token = app.jwt.sign({
          sub: String(user.id),
          email: user.email,
          role: user.role,
          [ROLE_CLAIM]: user.role,
          sid,
        });
        return { token, sessionId, expiresAt };
      },
      async revoke(sessionId: string) {
        await app.db
          .updateTable('sessions')
          .set({ revoked_at: Date.now() })
          .where('id', '=', sessionId)
          .where('revoked_at', 'is', null)
          .execute();
      },
      async revokeAllFor(userId: number, keep?: string) {
        let q = app.db
          .updateTable('sessions')
          .set({ revoked_at: Date.now() })
          .where('user_id', '=', userId)
          .where('revoked_at', 'is', null);
        if (keep) q = q.where('id', '!=', keep);
        await q.execute();
      },
    });
  },
  { name: 'auth', dependencies: ['database'] },
);
