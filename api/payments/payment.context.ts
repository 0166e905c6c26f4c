/** What the money paths (placing a paid order, refunds, reconciling) are given to work with. */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Dialect } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { Mailer } from '../mail/mailer.js';
import type { PaymentProvider } from './provider.js';

/** The database, the provider, the shopper's mail, the shop's settings, the log and the clock. */
export interface PaymentContext {
  db: Kysely<Database>;
  dialect: Dialect;
  provider: PaymentProvider;
  mailer: Mailer;
  config: Config;
  log: FastifyBaseLogger;
  now(): number;
}

/** The app's own context for a provider: every payments plugin builds it here, the same way. */
export function paymentContextOf(
  app: FastifyInstance,
  provider: PaymentProvider,
  now: () => number = () => Date.now(),
): PaymentContext {
  return {
    db: app.db,
    dialect: app.dialect,
    provider,
    mailer: app.mailer,
    config: app.config,
    log: app.log,
    now,
  };
}
