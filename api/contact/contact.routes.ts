import type { FastifyInstance } from 'fastify';
import { contactApi } from '../../domain/contact.contract.js';
import { contactMail, contactMessages } from '../../domain/contact.js';
import { ok } from '../../domain/envelope.js';
import { HttpError, tooMany } from '../http/errors.js';
import { given, route } from '../http/route.js';
import mailPlugin from '../mail/mail.plugin.js';
import type { RateRule } from '../ratelimit/ratelimit.js';
import rateLimitPlugin from '../ratelimit/ratelimit.plugin.js';
import { readShopSettings } from '../settings/settings.service.js';

const HOUR = 60 * 60 * 1000;
/**
 * An open form that makes the server send mail is a spam relay unless it is
 * limited: a few messages an hour per address and per email are plenty for a
 * shopper, and nothing for a script.
 */
export const CONTACT_RULES: { ip: RateRule; email: RateRule } = {
  ip: { limit: 5, windowMs: HOUR },
  email: { limit: 3, windowMs: HOUR },
};

/**
 * `POST /contact`: the shopper's message goes to the shop's address (SHOP_EMAIL, else the
 * profile's customer care email, else ADMIN_EMAIL)
 * through the mail layer, with the shopper's address to reply to. The answer
 * says the shop received it, which is true once it is queued: the mail layer
 * retries and logs a failed send, it never loses it silently.
 */
export default async function contactRoutes(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('mailer')) await app.register(mailPlugin);
  if (!app.hasDecorator('rateLimiter')) await app.register(rateLimitPlugin);

  route(app, contactApi.send, async (ctx) => {
    const body = given(ctx.body);
    const decisions = await Promise.all([
      app.rateLimiter.hit(`contact:ip:${ctx.request.ip}`, CONTACT_RULES.ip),
      app.rateLimiter.hit(`contact:email:${body.email}`, CONTACT_RULES.email),
    ]);
    const refused = decisions.filter((d) => !d.allowed);
    if (refused.length) {
      throw tooMany(contactMessages.tooMany, Math.max(...refused.map((d) => d.retryAfterMs)) / 1000);
    }
    const to =
      app.config.shopEmail ?? ((await readShopSettings(app.db)).profile.care.email || app.config.adminEmail);
    // No address at all (no SHOP_EMAIL, no care email in the profile, no ADMIN_EMAIL): said, not lost.
    if (!to) throw new HttpError(503, contactMessages.noInbox);
    app.mailer.send({ to, replyTo: body.email, ...contactMail(body) });
    ctx.reply.code(202);
    return ok({ received: true as const }, contactMessages.sent);
  });
}
