/**
 * The account endpoints (spec section 7; rules in README.md beside this file).
 * Answers never tell whether an email has an account: register, code
 * requests and forgot-password answer the same status and body either way,
 * and a login with an unknown email spends the time of a real password check.
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accountMessages } from '../../domain/account-messages.js';
import { accountsApi } from '../../domain/accounts.contract.js';
import type { LoginData } from '../../domain/accounts.js';
import { ok } from '../../domain/envelope.js';
import { messages } from '../../domain/messages.js';
import { badRequest, HttpError, tooMany, unauthorized } from '../http/errors.js';
import { route } from '../http/route.js';
import mailPlugin from '../mail/mail.plugin.js';
import { removeSessionSubscriptions } from '../push/push.repository.js';
import { clientKey } from '../ratelimit/address.js';
import type { RateRule } from '../ratelimit/ratelimit.js';
import rateLimitPlugin from '../ratelimit/ratelimit.plugin.js';
import { pacing, slowDownMs } from '../ratelimit/slowdown.js';
import { alreadyRegisteredMail, codeMail } from './account.mails.js';
import type { CodePurpose } from './account.tables.js';
import {
  CODE_TTL_MS,
  consumeCode,
  consumeRegistrationCode,
  dropRegistrations,
  issueCode,
  issueRegistrationCode,
  pruneCodes,
  registrationPasswordMatches,
} from './codes.js';
import { hashPassword, needsRehash, UNVERIFIED_PASSWORD, verifyDummy, verifyPassword } from './password.js';
import {
  findUserByEmail,
  findUserById,
  insertUser,
  toProfile,
  type UserRow,
  updateUser,
} from './user.repository.js';

const MINUTE = 60_000;

/**
 * Budgets of each action, counted before any hash or code check is spent. Three counts per request:
 * - `pair`: this email from this client address. Blocks (429): a stranger's failures land on their
 *   own address's pair, never on the owner's.
 * - `address`: this client address, whatever the email. Blocks: one address hammering many emails.
 * - `email`: this email, from any address. Never blocks, since anyone can run it up; past its limit
 *   answers are slowed down (`api/ratelimit/slowdown.ts`), so guessing spread over many addresses
 *   stays slow.
 * A client address is an IPv4 address or an IPv6 /64 (`clientKey`).
 */
export const RATE_RULES = {
  /** Password guesses: a login, or the current password of a password change. */
  login: {
    pair: { limit: 10, windowMs: 15 * MINUTE },
    address: { limit: 100, windowMs: 15 * MINUTE },
    email: { limit: 10, windowMs: 15 * MINUTE },
  },
  /** Registrations (each mails a code, or a notice to a verified account's owner). */
  register: {
    pair: { limit: 5, windowMs: 60 * MINUTE },
    address: { limit: 30, windowMs: 60 * MINUTE },
    email: { limit: 5, windowMs: 60 * MINUTE },
  },
  /** Requests for a login code. */
  loginCode: {
    pair: { limit: 5, windowMs: 60 * MINUTE },
    address: { limit: 30, windowMs: 60 * MINUTE },
    email: { limit: 5, windowMs: 60 * MINUTE },
  },
  /** Requests for a reset code ("forgot password"): not the login code's budget, so one never spends the other. */
  resetCode: {
    pair: { limit: 5, windowMs: 60 * MINUTE },
    address: { limit: 30, windowMs: 60 * MINUTE },
    email: { limit: 5, windowMs: 60 * MINUTE },
  },
  /** Code checks (registration, login, reset). A right, live code passes over every count (`checkCodeLimited`). */
  codeCheck: {
    pair: { limit: 10, windowMs: 15 * MINUTE },
    address: { limit: 60, windowMs: 15 * MINUTE },
    email: { limit: 10, windowMs: 15 * MINUTE },
  },
} satisfies Record<string, { pair: RateRule; address: RateRule; email: RateRule }>;

type Action = keyof typeof RATE_RULES;

/** The counter of an email from one client address (a space appears in neither an email nor an address). */
function pairKey(action: Action, email: string, address: string): string {
  return `${action}:pair:${email} ${address}`;
}

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

  // A key of its own for code HMACs, derived so the JWT secret itself never hashes codes.
  const codeSecret = createHmac('sha256', app.config.jwtSecret).update('one-time-codes').digest('base64url');
  const logCodes = app.config.mode === 'development' && !app.config.smtpUrl;
  let issued = 0;

  // Warm the dummy hash now, so the first login with an unknown email is not faster than the rest.
  void verifyDummy('').catch(() => {});

  interface Counted {
    /** The 429 to answer when the email's count from this address, or the address's own, is spent. */
    refusal: HttpError | null;
    /** How long to slow this answer down for the email's count (from every address). */
    delayMs: number;
  }

  async function count(action: Action, email: string, request: FastifyRequest): Promise<Counted> {
    const rules = RATE_RULES[action];
    const address = clientKey(request.ip);
    const [byPair, byAddress, byEmail] = await Promise.all([
      app.rateLimiter.hit(pairKey(action, email, address), rules.pair),
      app.rateLimiter.hit(`${action}:ip:${address}`, rules.address),
      app.rateLimiter.hit(`${action}:email:${email}`, rules.email),
    ]);
    const refused = [byPair, byAddress].filter((d) => !d.allowed);
    return {
      refusal: refused.length
        ? tooMany(messages.tooManyAttempts, Math.max(...refused.map((d) => d.retryAfterMs)) / 1000)
        : null,
      delayMs: slowDownMs(byEmail.count, rules.email),
    };
  }

  async function slowDown(
    delayMs: number,
    action: Action,
    email: string,
    request: FastifyRequest,
  ): Promise<void> {
    if (delayMs <= 0) return;
    // An operator sees an account under attack; the email may be logged, never a code or password.
    request.log.warn({ action, email, delayMs }, 'answer slowed down: many attempts on this email');
    await pacing.wait(delayMs);
  }

  /** Counts the request; refuses it (429) when its address is over, or slows it when the email is. */
  async function limit(action: Action, email: string, request: FastifyRequest): Promise<void> {
    const { refusal, delayMs } = await count(action, email, request);
    // A refusal answers at once: it costs the shop nothing, and waiting would only hold the socket.
    if (refusal) throw refusal;
    await slowDown(delayMs, action, email, request);
  }

  /**
   * A code check, counted like any action, except that a right, live code passes even when the
   * counts are over: the code itself bounds guessing (it dies after MAX_TRIES checks, each spent
   * before comparing), so the owner's mailed code always works. A wrong code over a count is 429.
   */
  async function checkCodeLimited<T>(
    email: string,
    request: FastifyRequest,
    check: () => Promise<T | null>,
  ): Promise<T | null> {
    const { refusal, delayMs } = await count('codeCheck', email, request);
    // As in `limit`, a refused request is not held; it is only checked, in case its code is right.
    if (!refusal) await slowDown(delayMs, 'codeCheck', email, request);
    const result = await check();
    if (result !== null) return result;
    if (refusal) throw refusal;
    return null;
  }

  /** A right password forgives this address's misses on the email (not the email's count: see README). */
  async function forgive(email: string, request: FastifyRequest): Promise<void> {
    await app.rateLimiter.reset(pairKey('login', email, clientKey(request.ip)));
  }

  function mailCode(to: string, purpose: CodePurpose, code: string, phone: string): void {
    if (logCodes) app.log.info({ to, purpose, code }, 'one-time code (development only)');
    app.mailer.send(codeMail(to, purpose, code, CODE_TTL_MS / MINUTE, phone));
    issued += 1;
    if (issued % 200 === 0)
      void pruneCodes(app.db).catch((err) => app.log.error({ err }, 'pruning codes failed'));
  }

  async function sendCode(user: UserRow, purpose: CodePurpose): Promise<void> {
    mailCode(user.email, purpose, await issueCode(app.db, codeSecret, user.id, purpose), user.phone);
  }

  let opened = 0;
  async function openSession(user: UserRow): Promise<LoginData> {
    const { token } = await app.sessions.issue({ id: user.id, email: user.email, role: user.role });
    opened += 1;
    // Sessions are dropped a day after they expire (revoked ones too, which keep their expiry): until
    // then a refused token can be told apart as "ended" rather than "never existed" in logs.
    if (opened % 200 === 0) {
      await app.db
        .deleteFrom('sessions')
        .where('expires_at', '<', Date.now() - 24 * 60 * MINUTE)
        .execute();
    }
    return { token, role: user.role, veryOtpLoginID: user.id, email: user.email, phone: user.phone };
  }

  /** The user a code check is about, or null (counted: `checkCodeLimited`). Unknown emails fail like wrong codes. */
  function checkCode(
    email: string,
    purpose: CodePurpose,
    code: string,
    request: FastifyRequest,
  ): Promise<UserRow | null> {
    return checkCodeLimited(email, request, async () => {
      const user = await findUserByEmail(app.db, email);
      if (!user) return null;
      return (await consumeCode(app.db, codeSecret, user.id, purpose, code)) ? user : null;
    });
  }

  route(app, accountsApi.createAccount, async ({ body: input, request }) => {
    const body = need(input);
    await limit('register', body.email, request);
    // Hashed in every branch, so the answer takes as long whether the email is new or not.
    const passwordHash = await hashPassword(body.password);
    const existing = await findUserByEmail(app.db, body.email);
    if (existing?.verified) {
      // Nothing changes on a verified account; its owner hears about the attempt.
      app.mailer.send(alreadyRegisteredMail(existing.email));
    } else {
      // A registration that was never verified may be started again (the code was lost, expired,
      // or the password mistyped). The account's details do not change here: each attempt gets
      // its own code, and only the code of an attempt applies that attempt's password.
      // The account row gets no usable password until a code proves the mailbox: the attempt keeps
      // its password, so nothing promoted or otherwise trusted later can log in with a stranger's.
      const id =
        existing?.id ??
        (await insertUser(app.db, {
          name: body.name,
          email: body.email,
          phone: body.phone,
          passwordHash: UNVERIFIED_PASSWORD,
        }));
      const user = await findUserById(app.db, id);
      if (user && !user.verified) {
        const code = await issueRegistrationCode(app.db, codeSecret, user.id, {
          passwordHash,
          name: body.name,
          phone: body.phone,
        });
        mailCode(user.email, 'register', code, body.phone);
      }
    }
    return ok({ email: body.email, phone: body.phone }, messages.otpSent);
  });

  route(app, accountsApi.verifyRegistration, async ({ body: input, request }) => {
    const body = need(input);
    const verified = await checkCodeLimited(body.Email, request, async () => {
      const user = await findUserByEmail(app.db, body.Email);
      const details = user ? await consumeRegistrationCode(app.db, codeSecret, user.id, body.Otp) : null;
      return user && details ? { user, details } : null;
    });
    if (!verified) throw badRequest(messages.otpWrong);
    const { user, details } = verified;
    // A reset may have verified the account meanwhile; then its password stays the reset one.
    if (!user.verified) {
      await updateUser(app.db, user.id, {
        verified: 1,
        password_hash: details.passwordHash,
        name: details.name,
        phone: details.phone,
      });
    }
    return ok(null, messages.otpVerified);
  });

  route(app, accountsApi.sendLoginCode, async ({ body: input, request }) => {
    const body = need(input);
    await limit('loginCode', body.email, request);
    const user = await findUserByEmail(app.db, body.email);
    if (user?.verified) await sendCode(user, 'login');
    return ok(null, messages.codeRequestAccepted);
  });

  route(app, accountsApi.loginWithCode, async ({ body: input, request }) => {
    const body = need(input);
    const user = await checkCode(body.email, 'login', body.otp, request);
    if (!user?.verified) throw badRequest(messages.otpWrong);
    return ok(await openSession(user), messages.otpVerified);
  });

  route(app, accountsApi.login, async ({ body: input, request }) => {
    const body = need(input);
    await limit('login', body.email, request);
    const user = await findUserByEmail(app.db, body.email);
    if (user && !user.verified) {
      // Only someone who knows a pending registration's password learns that it still waits for
      // its code; no password of an unverified account ever opens a session.
      if (await registrationPasswordMatches(app.db, user.id, body.password))
        throw new HttpError(403, messages.loginNotVerified);
      throw unauthorized(messages.loginWrongCredentials);
    }
    const good = user
      ? await verifyPassword(body.password, user.password_hash)
      : await verifyDummy(body.password);
    if (!user || !good) throw unauthorized(messages.loginWrongCredentials);
    if (needsRehash(user.password_hash)) {
      await updateUser(app.db, user.id, { password_hash: await hashPassword(body.password) });
    }
    await forgive(body.email, request);
    return ok(await openSession(user), messages.loggedIn);
  });

  route(app, accountsApi.logout, async ({ request }) => {
    // The bearer token says whose session ends; the spec's `email` field is informative only.
    await app.sessions.revoke(request.user.sessionId);
    // This device stops hearing about the account's orders: the next person on it must not.
    await removeSessionSubscriptions(app.db, request.user.sessionId);
    return ok(null, messages.loggedOut);
  });

  route(app, accountsApi.sendResetCode, async ({ body: input, request }) => {
    const body = need(input);
    await limit('resetCode', body.email, request);
    const user = await findUserByEmail(app.db, body.email);
    if (user) await sendCode(user, 'reset');
    return ok(null, messages.codeRequestAccepted);
  });

  route(app, accountsApi.resetPassword, async ({ body: input, request }) => {
    const body = need(input);
    const user = await checkCode(body.email, 'reset', body.otp, request);
    if (!user) throw badRequest(messages.otpWrong);
    // The code proves the mailbox, so a reset also verifies an account that never was.
    await updateUser(app.db, user.id, { password_hash: await hashPassword(body.newPassword), verified: 1 });
    await dropRegistrations(app.db, user.id);
    await app.sessions.revokeAllFor(user.id);
    return ok(null, messages.passwordResetDone);
  });

  async function currentUser(request: FastifyRequest): Promise<UserRow> {
    const user = await findUserById(app.db, request.user.id);
    if (!user) throw unauthorized(messages.noUserLoggedIn);
    return user;
  }

  route(app, accountsApi.getProfile, async ({ request }) => ok(toProfile(await currentUser(request))));
  route(app, accountsApi.getDetails, async ({ request }) => ok(toProfile(await currentUser(request))));

  route(app, accountsApi.updateProfile, async ({ body: input, request }) => {
    const body = need(input);
    const user = await currentUser(request);
    if (body.email && body.email !== user.email) throw badRequest(messages.emailChangeNotAllowed);
    const fields: Parameters<typeof updateUser>[2] = {};
    if (body.name !== undefined) fields.name = body.name;
    if (body.phone !== undefined) fields.phone = body.phone;
    if (body.address !== undefined) fields.address = body.address;
    if (body.password) {
      // A new password needs the current one (the schema asks for it to be there): a session alone,
      // on a phone left unlocked or a stolen token, must not be enough to take the account. Counted
      // as a login, from this address, so the session cannot be used to guess the password either,
      // while a stranger's failed logins elsewhere only slow the change down. 403, not 401: the
      // session itself is fine and a 401 would end it in the browser.
      await limit('login', user.email, request);
      if (!(await verifyPassword(body.currentPassword ?? '', user.password_hash)))
        throw new HttpError(403, accountMessages.currentPasswordWrong);
      await forgive(user.email, request);
      fields.password_hash = await hashPassword(body.password);
    }
    await updateUser(app.db, user.id, fields);
    // A new password ends the account's other sessions; this one stays.
    if (fields.password_hash) await app.sessions.revokeAllFor(user.id, request.user.sessionId);
    const updated = await currentUser(request);
    return ok(toProfile(updated), messages.profileUpdated);
  });
}
