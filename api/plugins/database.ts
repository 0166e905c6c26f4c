import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Db, Dialect } from '../db/database.js';
import type { Database } from '../db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Kysely handle. Repositories take it (or a transaction) as their first argument. */
    db: Kysely<Database>;
    dialect: Dialect;
  }
}

/** Decorates the app with an already opened and migrated database; closing the app closes it. */
export default fp(
  async (app: FastifyInstance, opts: { db: Db; closeWithApp: boolean }) => {
    app.decorate('db', opts.db.kysely);
    app.decorate('dialect', opts.db.dialect);
    if (opts.closeWithApp) app.addHook('onClose', async () => opts.db.destroy());
  },
  { name: 'database' },
);
