import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { readShopSettings } from '../settings/settings.service.js';
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
      shop: async () => (await readShopSettings(app.db)).profile,
    });
    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'mail' },
);
