import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, type Mailer } from './mailer.js';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/** Decorates the app with the mailer and lets mail in flight finish when the app closes. */
export default fp(
  async (app: FastifyInstance) => {
    const mailer = createMailer({
      smtpUrl: app.config.smtpUrl,
      from: app.config.mailFrom,
      dataDir: app.config.dataDir,
      log: app.log,
    });
    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'mail' },
);
