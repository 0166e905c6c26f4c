import compress from '@fastify/compress';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { fail } from '../domain/envelope.js';
import accountRoutes from './accounts/account.routes.js';
import adminRoutes from './admin/admin.routes.js';
import backupRoutes from './backup/backup.routes.js';
import { ProductListCache } from './catalogue/catalogue.cache.js';
import catalogueRoutes from './catalogue/catalogue.routes.js';
import { type Config, existingSecret } from './config.js';
import contactRoutes from './contact/contact.routes.js';
import couponRoutes from './coupons/coupon.routes.js';
import couponAdminRoutes from './coupons/coupon-admin.routes.js';
import offerRoutes from './coupons/offer.routes.js';
import type { Db } from './db/database.js';
import { sharedSecret } from './db/shared-secret.js';
import deliveryAreaRoutes from './delivery-areas/delivery-area.routes.js';
import giftRoutes from './gifts/gift.routes.js';
import goLiveRoutes from './golive/golive.routes.js';
import { clientErrorHandler } from './http/client-error.js';
import { REQUEST_ID_HEADER, requestIdOf } from './http/request-id.js';
import media from './images/media.plugin.js';
import newsletterRoutes from './newsletter/newsletter.routes.js';
import orderRoutes from './orders/order.routes.js';
import pages from './pages/pages.plugin.js';
import paymentRoutes from './payments/payment.routes.js';
import refundRoutes from './payments/refund.routes.js';
import auth from './plugins/auth.js';
import database from './plugins/database.js';
import docs from './plugins/docs.js';
import errors from './plugins/errors.js';
import health from './plugins/health.js';
import securityHeaders from './plugins/security-headers.js';
import web from './plugins/web.js';
import postRoutes from './posts/post.routes.js';
import pushRoutes, { type PushOptions } from './push/push.routes.js';
import logoRoutes from './settings/logo.routes.js';
import settingsRoutes from './settings/settings.routes.js';
import slotRoutes from './slots/slot.routes.js';

/** The settings as the running app has them: the session secret is always known here. */
export type AppConfig = Config & { jwtSecret: string };

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
  }
}

export interface AppOptions {
  config: Config;
  /** An opened, migrated database. */
  db: Db;
  /** Close the database when the app closes (the server does; tests that share a db do not). */
  closeDbWithApp?: boolean;
  logger?: FastifyServerOptions['logger'];
  /** The push sender's trust and deadlines (tests trust their local push service, and may shorten them). */
  push?: PushOptions;
}

/**
 * Builds the whole shop, API and PWA, as one Fastify app without listening:
 * `server.ts` listens, tests call `inject`. Infrastructure loads first, then
 * the features, as peers: none registers another (the order routes reach the
 * payments through `app.payments`). See README.md.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    // Uploads have their own, larger limit on their route; JSON bodies stay small.
    bodyLimit: 256 * 1024,
    trustProxy:
      typeof options.config.trustProxy === 'number'
        ? trustHops(options.config.trustProxy)
        : options.config.trustProxy,
    // While closing, requests on kept-alive connections reach the health plugin's hook, which
    // answers with the envelope (Fastify's own 503 would not be).
    return503OnClosing: false,
    // We validate with valibot in http/route.ts; the JSON schemas on routes only describe them for /api/docs.
    ajv: { customOptions: { strict: false } },
    // A proxy's or client's `X-Request-Id` names the request in our logs and in the answer; without one
    // (or with one that is not a plain token) the server makes one. See api/http/request-id.ts.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // What Node's parser refuses before Fastify sees it (431 for an over-long URL or header) keeps the envelope too.
    clientErrorHandler,
    // Fastify's own refusals before routing (a badly percent-encoded path) keep the envelope too.
    frameworkErrors: (_error, _request, reply) => {
      // Fastify types this reply with an unresolved route generic; it is a plain reply here.
      (reply as FastifyReply).code(400).send(fail('The address is not valid.'));
    },
  });
  app.setValidatorCompiler(() => () => true);
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  const config: AppConfig = {
    ...options.config,
    jwtSecret:
      options.config.jwtSecret ??
      (await sharedSecret(options.db.kysely, existingSecret(options.config.dataDir))),
  };
  app.decorate('config', config);
  // Shared by the catalogue's endpoints and the page heads (a search page names its first results).
  app.decorate('productLists', new ProductListCache());

  await app.register(errors);
  // Before every route, so every answer carries the headers: HTML, API, media, the worker script.
  await app.register(securityHeaders, {
    webDir: options.config.webDir,
    razorpay: Boolean(options.config.razorpay.keyId && options.config.razorpay.keySecret),
  });
  await app.register(database, { db: options.db, closeWithApp: options.closeDbWithApp ?? false });
  await app.register(auth, { secret: config.jwtSecret });
  await app.register(media);
  await app.register(docs);
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(health);

  await app.register(catalogueRoutes);
  await app.register(postRoutes);
  await app.register(accountRoutes);
  await app.register(couponRoutes);
  await app.register(couponAdminRoutes);
  await app.register(offerRoutes);
  await app.register(slotRoutes);
  await app.register(deliveryAreaRoutes);
  await app.register(settingsRoutes);
  await app.register(logoRoutes);
  await app.register(orderRoutes);
  await app.register(paymentRoutes);
  await app.register(refundRoutes);
  await app.register(contactRoutes);
  await app.register(newsletterRoutes);
  await app.register(adminRoutes);
  await app.register(giftRoutes);
  await app.register(goLiveRoutes);
  await app.register(pushRoutes, options.push ?? {});
  await app.register(backupRoutes, { db: options.db });

  await app.register(pages);
  await app.register(web, { webDir: options.config.webDir });
  return app;
}

/** Trust the nearest `hops` proxies (Fastify's types take hop counts only as a function). */
function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}
