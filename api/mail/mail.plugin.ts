import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { readSomeSettings } from '../settings/settings.service.js';
import { createMailer, type Mailer } from './mailer.js';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/**
 * Decorates the app with the mailer and lets mail in flight finish when the app closes. Each mail
 * is signed with the shop's profile read when it is sent (`shop-signature.ts`).
 */
export default fp(
  async (app: FastifyInstance) => {
    const mailer = createMailer({
      smtpUrl: app.config.smtpUrl,
      from: app.config.mailFrom,
      dataDir: app.config.dataDir,
      log: app.log,
      // The profile's row only: every order's mail asks, and parsing every setting (the policies'
      // texts, the search synonyms) was work each order paid for nothing.
      shop: async () => (await readSomeSettings(app.db, ['profile'])).profile,
    });
    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'mail' },
);
