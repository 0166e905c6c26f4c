/**
 * The account rules (README.md beside this file): registering, one-time codes, logins and their
 * sessions, resets and profile changes. Every action is counted (`account.limits.ts`) before any
 * hash or code check is spent. Nothing here tells whether an email has an account: registering and
 * asking for a code end the same way either way, a login with an unknown email spends the time of
 * a real password check, and a code check for one fails like a wrong code.
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import { accountMessages } from '../../domain/account-messages.js';
import type { LoginData, RegisterSchema, UpdateProfileSchema, UserProfile } from '../../domain/accounts.js';
import { messages } from '../../domain/messages.js';
import { badRequest, HttpError, unauthorized } from '../http/errors.js';
import { removeSessionSubscriptions } from '../push/push.repository.js';
import { type Attempt, attemptLimits } from './account.limits.js';
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
import { deleteSessionsExpiredBefore } from './session.repository.js';
import {
  findUserByEmail,
  findUserById,
  insertUser,
  toProfile,
  type UserRow,
  updateUser,
} from './user.repository.js';

const MINUTE = 60_000;

/** What the account rules use of the app: its database, settings, log, mail, rate limits and sessions. */
export type AccountDeps = Pick<
  FastifyInstance,
  'db' | 'config' | 'log' | 'mailer' | 'rateLimiter' | 'sessions'
>;

export type Registration = v.InferOutput<typeof RegisterSchema>;
export type ProfileChanges = v.InferOutput<typeof UpdateProfileSchema>;

/** The account actions, on one app's database, mailer, rate limiter and sessions. */
export function accountService(app: AccountDeps) {
  const { db } = app;
  const { limit, checkCodeLimited, forgive } = attemptLimits(app.rateLimiter);

  // A key of its own for code HMACs, derived so the JWT secret itself never hashes codes.
  const codeSecret = createHmac('sha256', app.config.jwtSecret).update('one-time-codes').digest('base64url');
  const logCodes = app.config.mode === 'development' && !app.config.smtpUrl;
  let issued = 0;
  let opened = 0;

  // Warm the dummy hash now, so the first login with an unknown email is not faster than the rest.
  void verifyDummy('').catch(() => {});

  function mailCode(to: string, purpose: CodePurpose, code: string, phone: string): void {
    if (logCodes) app.log.info({ to, purpose, code }, 'one-time code (development only)');
    app.mailer.send(codeMail(to, purpose, code, CODE_TTL_MS / MINUTE, phone));
    issued += 1;
    if (issued % 200 === 0)
      void pruneCodes(db).catch((err) => app.log.error({ err }, 'pruning codes failed'));
  }

  async function sendCode(user: UserRow, purpose: CodePurpose): Promise<void> {
    mailCode(user.email, purpose, await issueCode(db, codeSecret, user.id, purpose), user.phone);
  }

  async function openSession(user: UserRow): Promise<LoginData> {
    const { token } = await app.sessions.issue({ id: user.id, email: user.email, role: user.role });
    opened += 1;
    // Sessions are dropped a day after they expire (revoked ones too, which keep their expiry): until
    // then a refused token can be told apart as "ended" rather than "never existed" in logs.
    if (opened % 200 === 0) await deleteSessionsExpiredBefore(db, Date.now() - 24 * 60 * MINUTE);
    return { token, role: user.role, veryOtpLoginID: user.id, email: user.email, phone: user.phone };
  }

  /** The user a code check is about, or null (counted: `checkCodeLimited`). Unknown emails fail like wrong codes. */
  function checkCode(
    email: string,
    purpose: CodePurpose,
    code: string,
    attempt: Attempt,
  ): Promise<UserRow | null> {
    return checkCodeLimited(email, attempt, async () => {
      const user = await findUserByEmail(db, email);
      if (!user) return null;
      return (await consumeCode(db, codeSecret, user.id, purpose, code)) ? user : null;
    });
  }

  async function currentUser(userId: number): Promise<UserRow> {
    const user = await findUserById(db, userId);
    if (!user) throw unauthorized(messages.noUserLoggedIn);
    return user;
  }

  return {
    /** Mails a registration code, or a notice to the owner of a verified account; the same either way to the caller. */
    async register(body: Registration, attempt: Attempt): Promise<void> {
      await limit('register', body.email, attempt);
      // Hashed in every branch, so the answer takes as long whether the email is new or not.
      const passwordHash = await hashPassword(body.password);
      const existing = await findUserByEmail(db, body.email);
      if (existing?.verified) {
        // Nothing changes on a verified account; its owner hears about the attempt.
        app.mailer.send(alreadyRegisteredMail(existing.email));
        return;
      }
      // A registration that was never verified may be started again (the code was lost, expired,
      // or the password mistyped). The account's details do not change here: each attempt gets
      // its own code, and only the code of an attempt applies that attempt's password.
      // The account row gets no usable password until a code proves the mailbox: the attempt keeps
      // its password, so nothing promoted or otherwise trusted later can log in with a stranger's.
      const id =
        existing?.id ??
        (await insertUser(db, {
          name: body.name,
          email: body.email,
          phone: body.phone,
          passwordHash: UNVERIFIED_PASSWORD,
        }));
      const user = await findUserById(db, id);
      if (user && !user.verified) {
        const code = await issueRegistrationCode(db, codeSecret, user.id, {
          passwordHash,
          name: body.name,
          phone: body.phone,
        });
        mailCode(user.email, 'register', code, body.phone);
      }
    },

    /**
     * A registration code applies its attempt's password, name and phone, verifies the account and
     * opens its session: the code proved the mailbox as a login code would.
     */
    async verifyRegistration(email: string, code: string, attempt: Attempt): Promise<LoginData> {
      const verified = await checkCodeLimited(email, attempt, async () => {
        const user = await findUserByEmail(db, email);
        const details = user ? await consumeRegistrationCode(db, codeSecret, user.id, code) : null;
        return user && details ? { user, details } : null;
      });
      if (!verified) throw badRequest(messages.otpWrong);
      const { user, details } = verified;
      // A reset may have verified the account meanwhile; then its password stays the reset one.
      if (!user.verified) {
        await updateUser(db, user.id, {
          verified: 1,
          password_hash: details.passwordHash,
          name: details.name,
          phone: details.phone,
        });
      }
      return openSession((await findUserById(db, user.id)) ?? user);
    },

    /** Mails a login code to a verified account; the same to the caller whatever the email. */
    async sendLoginCode(email: string, attempt: Attempt): Promise<void> {
      await limit('loginCode', email, attempt);
      const user = await findUserByEmail(db, email);
      if (user?.verified) await sendCode(user, 'login');
    },

    async loginWithCode(email: string, code: string, attempt: Attempt): Promise<LoginData> {
      const user = await checkCode(email, 'login', code, attempt);
      if (!user?.verified) throw badRequest(messages.otpWrong);
      return openSession(user);
    },

    async login(email: string, password: string, attempt: Attempt): Promise<LoginData> {
      await limit('login', email, attempt);
      const user = await findUserByEmail(db, email);
      if (user && !user.verified) {
        // Only someone who knows a pending registration's password learns that it still waits for
        // its code; no password of an unverified account ever opens a session.
        if (await registrationPasswordMatches(db, user.id, password))
          throw new HttpError(403, messages.loginNotVerified);
        throw unauthorized(messages.loginWrongCredentials);
      }
      const good = user ? await verifyPassword(password, user.password_hash) : await verifyDummy(password);
      if (!user || !good) throw unauthorized(messages.loginWrongCredentials);
      if (needsRehash(user.password_hash)) {
        await updateUser(db, user.id, { password_hash: await hashPassword(password) });
      }
      await forgive(email, attempt);
      return openSession(user);
    },

    async logout(sessionId: string): Promise<void> {
      await app.sessions.revoke(sessionId);
      // This device stops hearing about the account's orders: the next person on it must not.
      await removeSessionSubscriptions(db, sessionId);
    },

    /** Mails a reset code to any account, verified or not; the same to the caller whatever the email. */
    async sendResetCode(email: string, attempt: Attempt): Promise<void> {
      await limit('resetCode', email, attempt);
      const user = await findUserByEmail(db, email);
      if (user) await sendCode(user, 'reset');
    },

    /** Sets a new password with a reset code, and ends every session of the account. */
    async resetPassword(email: string, code: string, newPassword: string, attempt: Attempt): Promise<void> {
      const user = await checkCode(email, 'reset', code, attempt);
      if (!user) throw badRequest(messages.otpWrong);
      // The code proves the mailbox, so a reset also verifies an account that never was.
      await updateUser(db, user.id, { password_hash: await hashPassword(newPassword), verified: 1 });
      await dropRegistrations(db, user.id);
      await app.sessions.revokeAllFor(user.id);
    },

    async profile(userId: number): Promise<UserProfile> {
      return toProfile(await currentUser(userId));
    },

    /** Changes the profile; a new password needs the current one and ends the account's other sessions. */
    async updateProfile(
      userId: number,
      sessionId: string,
      body: ProfileChanges,
      attempt: Attempt,
    ): Promise<UserProfile> {
      const user = await currentUser(userId);
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
        await limit('login', user.email, attempt);
        if (!(await verifyPassword(body.currentPassword ?? '', user.password_hash)))
          throw new HttpError(403, accountMessages.currentPasswordWrong);
        await forgive(user.email, attempt);
        fields.password_hash = await hashPassword(body.password);
      }
      await updateUser(db, user.id, fields);
      // A new password ends the account's other sessions; this one stays.
      if (fields.password_hash) await app.sessions.revokeAllFor(user.id, sessionId);
      return toProfile(await currentUser(userId));
    },
  };
}
