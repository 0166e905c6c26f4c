/**
 * The account endpoints (spec section 7): each reads its checked input, calls the account rules
 * (`account.service.ts`) and answers the envelope. Their answers are never cached (no-store).
 */
import type { FastifyInstance } from 'fastify';
import { accountsApi } from '../../domain/accounts.contract.js';
import { ok } from '../../domain/envelope.js';
import { messages } from '../../domain/messages.js';
import { badRequest } from '../http/errors.js';
import { route } from '../http/route.js';
import mailPlugin from '../mail/mail.plugin.js';
import rateLimitPlugin from '../ratelimit/ratelimit.plugin.js';
import { accountService } from './account.service.js';

/**
 * The contract types an optional schema's output as possibly undefined; the
 * route always parses a body (an absent one as `{}`), so this only narrows.
 */
function need<T>(body: T | undefined): T {
  if (body === undefined) throw badRequest(messages.formInvalid);
  return body;
}

export default async function accountRoutes(app: FastifyInstance): Promise<void> {
  // Registered here (inside this feature's scope) unless the app already provides them.
  if (!app.hasDecorator('mailer')) await app.register(mailPlugin);
  if (!app.hasDecorator('rateLimiter')) await app.register(rateLimitPlugin);

  // Logins and registrations answer tokens and personal details without a session, so the session
  // rule (plugins/auth.ts) does not cover them: no cache between the shopper and us may keep them.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  const accounts = accountService(app);

  route(app, accountsApi.createAccount, async ({ body: input, request }) => {
    const body = need(input);
    await accounts.register(body, request);
    return ok({ email: body.email, phone: body.phone }, messages.otpSent);
  });

  route(app, accountsApi.verifyRegistration, async ({ body: input, request }) => {
    const body = need(input);
    return ok(await accounts.verifyRegistration(body.Email, body.Otp, request), messages.otpVerified);
  });

  route(app, accountsApi.sendLoginCode, async ({ body: input, request }) => {
    await accounts.sendLoginCode(need(input).email, request);
    return ok(null, messages.codeRequestAccepted);
  });

  route(app, accountsApi.loginWithCode, async ({ body: input, request }) => {
    const body = need(input);
    return ok(await accounts.loginWithCode(body.email, body.otp, request), messages.otpVerified);
  });

  route(app, accountsApi.login, async ({ body: input, request }) => {
    const body = need(input);
    return ok(await accounts.login(body.email, body.password, request), messages.loggedIn);
  });

  route(app, accountsApi.logout, async ({ request }) => {
    // The bearer token says whose session ends; the spec's `email` field is informative only.
    await accounts.logout(request.user.sessionId);
    return ok(null, messages.loggedOut);
  });

  route(app, accountsApi.sendResetCode, async ({ body: input, request }) => {
    await accounts.sendResetCode(need(input).email, request);
    return ok(null, messages.codeRequestAccepted);
  });

  route(app, accountsApi.resetPassword, async ({ body: input, request }) => {
    const body = need(input);
    await accounts.resetPassword(body.email, body.otp, body.newPassword, request);
    return ok(null, messages.passwordResetDone);
  });

  route(app, accountsApi.getProfile, async ({ request }) => ok(await accounts.profile(request.user.id)));
  route(app, accountsApi.getDetails, async ({ request }) => ok(await accounts.profile(request.user.id)));

  route(app, accountsApi.updateProfile, async ({ body: input, request }) => {
    const body = need(input);
    const updated = await accounts.updateProfile(request.user.id, request.user.sessionId, body, request);
    return ok(updated, messages.profileUpdated);
  });
}
