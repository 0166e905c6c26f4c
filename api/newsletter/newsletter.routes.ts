import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok } from '../../domain/envelope.js';
import { newsletterApi } from '../../domain/newsletter.contract.js';
import { newsletterMessages } from '../../domain/newsletter.js';
import { HttpError, tooMany } from '../http/errors.js';
import { downloadRoute, given, route } from '../http/route.js';
import mailPlugin from '../mail/mail.plugin.js';
import { requestOrigin } from '../pages/origin.js';
import type { RateRule } from '../ratelimit/ratelimit.js';
import rateLimitPlugin from '../ratelimit/ratelimit.plugin.js';
import { readShopSettings } from '../settings/settings.service.js';
import { subscribersCsv } from './newsletter.csv.js';
import {
  alreadySubscribedMail,
  confirmMail,
  listLinks,
  unsubscribeToken,
  welcomeMail,
} from './newsletter.mails.js';
import { confirmedSubscribers, subscriberCounts, unsubscribeKey } from './newsletter.repository.js';
import { confirm, leave, requestToJoin, subscriptionOf } from './newsletter.service.js';

const HOUR = 60 * 60 * 1000;
/**
 * Each subscribe sends a mail to the address typed: without limits the form would mail anyone
 * at will. A few an hour per client address and per email are plenty for a person.
 */
export const NEWSLETTER_RULES: { ip: RateRule; email: RateRule } = {
  ip: { limit: 5, windowMs: HOUR },
  email: { limit: 3, windowMs: HOUR },
};

/** The mailing list (see README.md): subscribe, confirm, unsubscribe, and the admin's count and export. */
export default async function newsletterRoutes(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('mailer')) await app.register(mailPlugin);
  if (!app.hasDecorator('rateLimiter')) await app.register(rateLimitPlugin);
  const key = await unsubscribeKey(app.db);
  const linksFor = (request: FastifyRequest, id: number, confirmToken?: string) =>
    listLinks(requestOrigin(app.config, request), unsubscribeToken(key, id), confirmToken);

  route(app, newsletterApi.subscribe, async (ctx) => {
    const { email } = given(ctx.body);
    const decisions = await Promise.all([
      app.rateLimiter.hit(`newsletter:ip:${ctx.request.ip}`, NEWSLETTER_RULES.ip),
      app.rateLimiter.hit(`newsletter:email:${email}`, NEWSLETTER_RULES.email),
    ]);
    const refused = decisions.filter((d) => !d.allowed);
    if (refused.length) {
      throw tooMany(newsletterMessages.tooMany, Math.max(...refused.map((d) => d.retryAfterMs)) / 1000);
    }
    const joined = await requestToJoin(app.db, email, Date.now());
    // The same answer either way; only the mail, which only the mailbox's owner reads, differs.
    const shop = (await readShopSettings(app.db)).profile.name;
    app.mailer.send(
      joined.token !== null
        ? confirmMail(email, linksFor(ctx.request, joined.id, joined.token), shop)
        : alreadySubscribedMail(email, linksFor(ctx.request, joined.id), shop),
    );
    ctx.reply.code(202);
    return ok({ received: true as const }, newsletterMessages.checkInbox);
  });

  route(app, newsletterApi.confirm, async (ctx) => {
    const { token } = given(ctx.body);
    const confirmed = await confirm(app.db, token, Date.now());
    if (!confirmed) return ok({ alreadySubscribed: true }, newsletterMessages.alreadySubscribed);
    const shop = (await readShopSettings(app.db)).profile.name;
    app.mailer.send(welcomeMail(confirmed.email, linksFor(ctx.request, confirmed.id), shop));
    return ok({ alreadySubscribed: false }, newsletterMessages.subscribed);
  });

  // The one-click address carries the unsubscribe token (RFC 8058 wants it in the URL the mail
  // client POSTs to), and Fastify's request log writes URLs: these routes log nothing through the
  // request, and a failure is logged here without its URL.
  await app.register(
    async (scope) => {
      // The one-click POST is a form (urlencoded, or multipart as RFC 8058 allows); its only field
      // says "one click", which the address already says, so the body is read and left.
      scope.addContentTypeParser(
        ['application/x-www-form-urlencoded', 'multipart/form-data'],
        { parseAs: 'string', bodyLimit: 4 * 1024 },
        (_request, _body, done) => done(null, undefined),
      );
      route(
        scope,
        newsletterApi.unsubscribe,
        async (ctx) => {
          const { token } = given(ctx.query);
          try {
            const removed = await leave(app.db, key, token);
            return ok(
              { wasSubscribed: removed },
              removed ? newsletterMessages.unsubscribed : newsletterMessages.alreadyUnsubscribed,
            );
          } catch (err) {
            if (!(err instanceof HttpError))
              app.log.error({ reqId: ctx.request.id, err }, 'unsubscribe failed');
            throw err;
          }
        },
        { bodyDescription: 'Any body or none: a mail client sends List-Unsubscribe=One-Click as a form' },
      );
      route(scope, newsletterApi.unsubscribePage, async (ctx) => {
        const { token } = given(ctx.query);
        const id = subscriptionOf(key, token);
        return ok({ page: linksFor(ctx.request, id).unsubscribePage }, newsletterMessages.openThePage);
      });
    },
    { logLevel: 'silent' },
  );

  route(app, newsletterApi.counts, async () => ok(await subscriberCounts(app.db, Date.now())));

  downloadRoute(app, newsletterApi.export, async (ctx) => {
    const rows = await confirmedSubscribers(app.db);
    const origin = requestOrigin(app.config, ctx.request);
    const csv = subscribersCsv(
      rows.map((r) => ({
        ...r,
        unsubscribe: listLinks(origin, unsubscribeToken(key, r.id)).unsubscribePage,
      })),
    );
    const bytes = Buffer.from(csv, 'utf8');
    return {
      stream: Readable.from([bytes]),
      size: bytes.length,
      filename: `subscribers-${new Date().toISOString().slice(0, 10)}.csv`,
    };
  });
}
