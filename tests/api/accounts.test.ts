import { type AddressInfo, createServer, type Socket } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrPromoteAdmin } from '../../api/accounts/admin.js';
import { hashParams } from '../../api/accounts/password.js';
import type { Config } from '../../api/config.js';
import { runStartupTasks } from '../../api/startup.js';
import { accountMessages } from '../../domain/account-messages.js';
import { messages } from '../../domain/messages.js';
// Every answer checked against its endpoint's contract, as in makeTestApp.
import { buildTestApp as buildApp, makeTestApp, type TestApp, testConfig } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { codeIn, startSmtp, type TestSmtp, textOf } from '../support/smtp.js';

/**
 * The account flows through `inject`, on every dialect, with every mail
 * going over a real SMTP conversation to a server started here; codes are
 * read from the mails that arrive. Each test uses its own emails and its own
 * client address, so rate limits of one test never touch another.
 */
const PASSWORD = 'Good-Pass1';
let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.1.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};
let emailCounter = 0;
const nextEmail = (tag: string) => {
  emailCounter += 1;
  return `${tag}${emailCounter}.${Date.now().toString(36)}@example.test`;
};

function envelopeOf(res: LightMyRequestResponse) {
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['data', 'isSuccess', 'sys_message']);
  return body as { isSuccess: boolean; data: unknown; sys_message: string };
}

function expectFailure(res: LightMyRequestResponse, status: number, message?: string) {
  expect(res.statusCode).toBe(status);
  const body = envelopeOf(res);
  expect(body.isSuccess).toBe(false);
  if (message !== undefined) expect(body.sys_message).toBe(message);
}

for (const dialect of DIALECTS) {
  describe(`accounts on ${dialect}`, () => {
    let t: TestApp;
    let smtp: TestSmtp;

    beforeAll(async () => {
      smtp = await startSmtp();
      t = await makeTestApp(dialect, { smtpUrl: smtp.url });
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    /**
     * A second app on this test's database, with its own settings and mailer.
     * (A second PostgreSQL test database in one process trips Kysely's migration
     * table check, which looks in every schema; see the report to the lead.)
     */
    async function appOnSameDb(overrides: Partial<Config>) {
      const app = await buildApp({ config: testConfig({ smtpUrl: smtp.url, ...overrides }), db: t.db });
      await app.ready();
      return { app, close: () => app.close() };
    }

    const call = (
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      ip: string,
      payload?: unknown,
      token?: string,
    ) =>
      t.app.inject({
        method,
        url: `/api${url}`,
        remoteAddress: ip,
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      });
    const post = (url: string, ip: string, payload?: unknown, token?: string) =>
      call('POST', url, ip, payload, token);

    const registration = (email: string, password = PASSWORD) => ({
      name: 'Asha Verma',
      email,
      password,
      confirmPassword: password,
      phone: '9876543210',
    });

    async function registerVerified(email: string, ip: string, password = PASSWORD): Promise<void> {
      const res = await post('/CreateAccount', ip, registration(email, password));
      expect(res.statusCode).toBe(200);
      const code = codeIn(await smtp.take(email));
      const verified = await post('/verifiedOtploginCustomer', ip, { Email: email, Otp: code });
      expect(verified.statusCode).toBe(200);
    }

    async function login(email: string, ip: string, password = PASSWORD): Promise<string> {
      const res = await post('/LoginCustomer', ip, { email, password });
      expect(res.statusCode).toBe(200);
      return res.json().data.token as string;
    }

    it('registers, verifies with the emailed code and logs in', async () => {
      const ip = nextIp();
      const email = nextEmail('flow');
      const res = await post('/CreateAccount', ip, registration(`  ${email.toUpperCase()} `));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        isSuccess: true,
        data: { email, phone: '9876543210' },
        sys_message: messages.otpSent,
      });

      const mail = await smtp.take(email);
      expect(mail.subject).toMatch(/registration code: \d{6}$/);
      const code = codeIn(mail);
      expect(textOf(mail)).toContain(code);
      expect(textOf(mail)).toContain('phone number ending in 10');
      // Only an HMAC of the code is stored: the table does not hold the code itself.
      const stored = await t.app.db.selectFrom('registration_codes').select(['code_hash', 'tries']).execute();
      expect(stored.length).toBeGreaterThan(0);
      for (const r of stored) {
        expect(r.code_hash).not.toContain(code);
        expect(r.code_hash).toMatch(/^[\w-]{43}$/);
      }

      // Not verified yet: the right password does not open a session.
      expectFailure(
        await post('/LoginCustomer', ip, { email, password: PASSWORD }),
        403,
        messages.loginNotVerified,
      );

      const verified = await post('/verifiedOtploginCustomer', ip, { Email: email.toUpperCase(), Otp: code });
      expect(verified.statusCode).toBe(200);
      // The right code signs the shopper in: a session as a login answers it, which the server accepts.
      expect(verified.headers['cache-control']).toBe('no-store');
      const session = verified.json();
      expect(session).toMatchObject({ isSuccess: true, sys_message: messages.otpVerified });
      expect(Object.keys(session.data).sort()).toEqual(['email', 'phone', 'role', 'token', 'veryOtpLoginID']);
      expect(session.data).toMatchObject({ role: '0', email, phone: '9876543210' });
      const verifiedProfile = await t.app.inject({
        method: 'GET',
        url: '/api/GetUserProfile',
        headers: { authorization: `Bearer ${session.data.token}` },
      });
      expect(verifiedProfile.statusCode).toBe(200);
      expect(verifiedProfile.json().data.email).toBe(email);

      const loggedIn = await post('/LoginCustomer', ip, {
        email: ` ${email.toUpperCase()}`,
        password: PASSWORD,
      });
      expect(loggedIn.statusCode).toBe(200);
      expect(loggedIn.headers['cache-control']).toBe('no-store');
      const data = loggedIn.json().data;
      expect(Object.keys(data).sort()).toEqual(['email', 'phone', 'role', 'token', 'veryOtpLoginID']);
      expect(data).toMatchObject({ role: '0', email, phone: '9876543210' });
      expect(data.token.split('.')).toHaveLength(3);
      const row = await t.app.db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(data.veryOtpLoginID).toBe(row.id);
      // At the parameters of this run (OWASP's in a shop: accounts-setup.test.ts checks those).
      const { N } = hashParams();
      expect(row.password_hash).toMatch(new RegExp(`^scrypt\\$${N}\\$8\\$1\\$[\\w-]+\\$[\\w-]+$`));
      expect(row.password_hash).not.toContain(PASSWORD);

      // The token carries the role as `role` and as the long claim URI, with an expiry.
      const claims = JSON.parse(Buffer.from(data.token.split('.')[1], 'base64url').toString());
      expect(claims).toMatchObject({
        sub: String(row.id),
        email,
        role: '0',
        'http://schemas.microsoft.com/ws/2008/06/identity/claims/role': '0',
      });
      expect(claims.exp).toBeGreaterThan(Date.now() / 1000);

      const profile = await call('GET', '/GetUserProfile', ip, undefined, data.token);
      expect(profile.statusCode).toBe(200);
      expect(profile.json().data).toMatchObject({ userID: row.id, name: 'Asha Verma', email, address: '' });
      expect(profile.body).not.toMatch(/password|scrypt/i);
      const details = await call('GET', '/GetUserDetails', ip, undefined, data.token);
      expect(details.json().data).toEqual(profile.json().data);
    });

    it("answers the spec's message for each bad registration field, never a 500", async () => {
      const ip = nextIp();
      const email = nextEmail('bad');
      const good = registration(email);
      const cases: [Record<string, unknown>, string][] = [
        [{ ...good, name: '  ' }, messages.nameRequired],
        [{ ...good, name: 42 }, messages.nameRequired],
        [{ ...good, email: 'not-an-email' }, messages.emailInvalid],
        [{ ...good, email: ['a@b.co'] }, messages.emailInvalid],
        [{ ...good, password: '', confirmPassword: '' }, messages.passwordRequired],
        [{ ...good, password: 'Ab1!', confirmPassword: 'Ab1!' }, messages.passwordMin],
        [
          { ...good, password: 'alllowercase1!', confirmPassword: 'alllowercase1!' },
          messages.passwordComplexity,
        ],
        [
          { ...good, password: `Aa1!${'x'.repeat(200)}`, confirmPassword: `Aa1!${'x'.repeat(200)}` },
          messages.passwordTooLong,
        ],
        [{ ...good, confirmPassword: 'Other-Pass1' }, messages.passwordsDoNotMatch],
        [{ ...good, phone: '12345' }, messages.phoneInvalid],
        [{ ...good, phone: '98765432100' }, messages.phoneInvalid],
        [{ ...good, phone: null }, messages.phoneInvalid],
      ];
      for (const [payload, message] of cases) {
        expectFailure(await post('/CreateAccount', ip, payload), 400, message);
      }
      const notJson = await t.app.inject({
        method: 'POST',
        url: '/api/CreateAccount',
        remoteAddress: ip,
        headers: { 'content-type': 'application/json' },
        payload: '{"name":',
      });
      expectFailure(notJson, 400);
      expectFailure(await post('/CreateAccount', ip), 400, messages.formInvalid);
      const { phone: _phone, ...withoutPhone } = good;
      expectFailure(await post('/CreateAccount', ip, withoutPhone), 400, messages.formInvalid);
      expectFailure(await post('/CreateAccount', ip, [good]), 400, messages.formInvalid);
      // None of the refused registrations stored an account or sent a mail.
      expect(await t.app.db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual(
        [],
      );
    });

    it('refuses wrong, reused and expired registration codes', async () => {
      const ip = nextIp();
      const email = nextEmail('codes');
      await post('/CreateAccount', ip, registration(email));
      const code = codeIn(await smtp.take(email));
      const wrong = code === '000000' ? '000001' : '000000';
      expectFailure(
        await post('/verifiedOtploginCustomer', ip, { Email: email, Otp: wrong }),
        400,
        messages.otpWrong,
      );
      expectFailure(
        await post('/verifiedOtploginCustomer', ip, { Email: email, Otp: '12a456' }),
        400,
        messages.otpInvalid,
      );
      expectFailure(
        await post('/verifiedOtploginCustomer', ip, { Email: email, Otp: '1234567' }),
        400,
        messages.otpInvalid,
      );

      // Expired: the row's expiry is moved into the past; the right code no longer works.
      await t.app.db
        .updateTable('registration_codes')
        .set({ expires_at: Date.now() - 1 })
        .execute();
      expectFailure(
        await post('/verifiedOtploginCustomer', ip, { Email: email, Otp: code }),
        400,
        messages.otpWrong,
      );

      // Registering again sends a fresh code; it works once, and never again.
      await post('/CreateAccount', ip, registration(email));
      const fresh = codeIn(await smtp.take(email));
      expect((await post('/verifiedOtploginCustomer', ip, { Email: email, Otp: fresh })).statusCode).toBe(
        200,
      );
      expectFailure(
        await post('/verifiedOtploginCustomer', ip, { Email: email, Otp: fresh }),
        400,
        messages.otpWrong,
      );
    });

    it('binds each registration code to the password of the registration that asked for it', async () => {
      // The owner registers; someone else registers the same email with their own password.
      const ip = nextIp();
      const email = nextEmail('hijack');
      const other = { ...registration(email, 'Other-Pass9'), name: 'Mallory', phone: '9000000001' };
      await post('/CreateAccount', ip, registration(email));
      const ownCode = codeIn(await smtp.take(email));
      expect((await post('/CreateAccount', nextIp(), other)).statusCode).toBe(200);
      const otherMail = await smtp.take(email);
      expect(textOf(otherMail)).toContain('phone number ending in 01');
      const otherCode = codeIn(otherMail);

      // The later attempt changed nothing yet: the account still holds the owner's details.
      const row = await t.app.db
        .selectFrom('users')
        .select(['name', 'phone'])
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ name: 'Asha Verma', phone: '9876543210' });

      // The owner's own code still works, and sets the owner's password, not the other one.
      expect((await post('/verifiedOtploginCustomer', ip, { Email: email, Otp: ownCode })).statusCode).toBe(
        200,
      );
      expectFailure(await post('/LoginCustomer', ip, { email, password: 'Other-Pass9' }), 401);
      await login(email, ip);
      // Verifying ended every other attempt: the other code is dead.
      if (otherCode !== ownCode) {
        expectFailure(
          await post('/verifiedOtploginCustomer', ip, { Email: email, Otp: otherCode }),
          400,
          messages.otpWrong,
        );
      }
      const pending = await t.app.db
        .selectFrom('registration_codes')
        .innerJoin('users', 'users.id', 'registration_codes.user_id')
        .select('registration_codes.id')
        .where('users.email', '=', email)
        .execute();
      expect(pending).toEqual([]);
    });

    it('kills registration codes after 5 wrong tries, and lets a right code verify only once when raced', async () => {
      const ip = nextIp();
      const email = nextEmail('regtries');
      await post('/CreateAccount', ip, registration(email));
      const code = codeIn(await smtp.take(email));
      const wrong = code === '999999' ? '999998' : '999999';
      for (let i = 0; i < 5; i++) {
        expectFailure(
          await post('/verifiedOtploginCustomer', ip, { Email: email, Otp: wrong }),
          400,
          messages.otpWrong,
        );
      }
      expectFailure(
        await post('/verifiedOtploginCustomer', ip, { Email: email, Otp: code }),
        400,
        messages.otpWrong,
      );

      await post('/CreateAccount', ip, registration(email));
      const fresh = codeIn(await smtp.take(email));
      // Four, so the email stays within its 10 code checks per 15 minutes.
      const raced = await Promise.all(
        Array.from({ length: 4 }, () =>
          post('/verifiedOtploginCustomer', nextIp(), { Email: email, Otp: fresh }),
        ),
      );
      expect(raced.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400]);
      await login(email, ip);
    });

    it('lets a person who mistyped register again: the newest code sets the newest password', async () => {
      const ip = nextIp();
      const email = nextEmail('retry');
      await post('/CreateAccount', ip, registration(email, 'Typo-Pass1'));
      await smtp.take(email);
      await post('/CreateAccount', ip, { ...registration(email), phone: '9123456780' });
      const code = codeIn(await smtp.take(email));
      // lower-case field names are read as well as the spec's Email/Otp
      expect((await post('/verifiedOtploginCustomer', ip, { email, otp: code })).statusCode).toBe(200);
      expectFailure(await post('/LoginCustomer', ip, { email, password: 'Typo-Pass1' }), 401);
      const res = await post('/LoginCustomer', ip, { email, password: PASSWORD });
      expect(res.json().data).toMatchObject({ email, phone: '9123456780' });
    });

    it('keeps at most 3 registration attempts alive; a reset ends them all', async () => {
      const ip = nextIp();
      const email = nextEmail('cap');
      const codes: string[] = [];
      const codeAt = (i: number) => codes[i] ?? '';
      for (let i = 0; i < 4; i++) {
        await post('/CreateAccount', ip, registration(email));
        codes.push(codeIn(await smtp.take(email)));
      }
      const user = await t.app.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      const live = await t.app.db
        .selectFrom('registration_codes')
        .select('id')
        .where('user_id', '=', user.id)
        .execute();
      expect(live).toHaveLength(3);
      if (!codes.slice(1).includes(codeAt(0))) {
        expectFailure(await post('/verifiedOtploginCustomer', ip, { Email: email, Otp: codeAt(0) }), 400);
      }
      // A reset proves the mailbox too: it verifies the account and ends the pending attempts.
      await post('/SendResetOtp', ip, { email });
      const resetCode = codeIn(await smtp.take(email));
      expect(
        (await post('/ResetPassword', ip, { email, otp: resetCode, newPassword: 'Reset-Pass7' })).statusCode,
      ).toBe(200);
      expectFailure(await post('/verifiedOtploginCustomer', ip, { Email: email, Otp: codeAt(3) }), 400);
      await login(email, ip, 'Reset-Pass7');
    });

    it('logs in with a code sent as email/otp or as the spec-cased Email/Otp', async () => {
      const ip = nextIp();
      const email = nextEmail('casing');
      await registerVerified(email, ip);
      await post('/onlyotp', ip, { email });
      const first = await post('/VryOtpLogin', ip, {
        Email: email.toUpperCase(),
        Otp: codeIn(await smtp.take(email)),
      });
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toMatchObject({ email, role: '0' });
      await post('/onlyotp', ip, { email });
      const second = await post('/VryOtpLogin', ip, { email, otp: codeIn(await smtp.take(email)) });
      expect(second.statusCode).toBe(200);
      expectFailure(await post('/VryOtpLogin', ip, { Email: email }), 400, messages.otpInvalid);
    });

    it('kills a code after 5 wrong tries: the 6th guess is refused even when right', async () => {
      const ip = nextIp();
      const email = nextEmail('tries');
      await registerVerified(email, ip);
      expect((await post('/onlyotp', ip, { email })).statusCode).toBe(200);
      const code = codeIn(await smtp.take(email));
      const wrong = code === '999999' ? '999998' : '999999';
      for (let i = 0; i < 5; i++) {
        expectFailure(await post('/VryOtpLogin', ip, { email, otp: wrong }), 400, messages.otpWrong);
      }
      expectFailure(await post('/VryOtpLogin', ip, { email, otp: code }), 400, messages.otpWrong);

      // A new code replaces the dead one and logs in.
      await post('/onlyotp', ip, { email });
      const next = codeIn(await smtp.take(email));
      const res = await post('/VryOtpLogin', ip, { email, otp: next });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ email, role: '0' });
      const profile = await call('GET', '/GetUserProfile', ip, undefined, res.json().data.token);
      expect(profile.statusCode).toBe(200);
    });

    it('binds a code to its purpose and lets a new code replace the old', async () => {
      const ip = nextIp();
      const email = nextEmail('purpose');
      await registerVerified(email, ip);

      await post('/onlyotp', ip, { email });
      const loginCode = codeIn(await smtp.take(email));
      // A login code does not reset a password...
      expectFailure(
        await post('/ResetPassword', ip, { email, otp: loginCode, newPassword: 'New-Pass22' }),
        400,
        messages.otpWrong,
      );
      // ...nor verify a registration; it still logs in.
      expectFailure(await post('/verifiedOtploginCustomer', ip, { Email: email, Otp: loginCode }), 400);
      expect((await post('/VryOtpLogin', ip, { email, otp: loginCode })).statusCode).toBe(200);

      await post('/SendResetOtp', ip, { email });
      const first = codeIn(await smtp.take(email));
      await post('/SendResetOtp', ip, { email });
      const second = codeIn(await smtp.take(email));
      expectFailure(await post('/VryOtpLogin', ip, { email, otp: second }), 400, messages.otpWrong);
      if (first !== second) {
        expectFailure(
          await post('/ResetPassword', ip, { email, otp: first, newPassword: 'New-Pass22' }),
          400,
          messages.otpWrong,
        );
      }
      const reset = await post('/ResetPassword', ip, { email, otp: second, newPassword: 'New-Pass22' });
      expect(reset.json()).toEqual({ isSuccess: true, data: null, sys_message: messages.passwordResetDone });
    });

    it('refuses a wrong password and an unknown email with the same answer', async () => {
      const ip = nextIp();
      const email = nextEmail('pw');
      await registerVerified(email, ip);
      const wrong = await post('/LoginCustomer', ip, { email, password: 'Wrong-Pass1' });
      const unknown = await post('/LoginCustomer', ip, {
        email: nextEmail('nobody'),
        password: 'Wrong-Pass1',
      });
      expectFailure(wrong, 401, messages.loginWrongCredentials);
      expect(unknown.statusCode).toBe(wrong.statusCode);
      expect(unknown.json()).toEqual(wrong.json());
      expectFailure(await post('/LoginCustomer', ip, { email, password: '' }), 400, messages.loginInvalid);
      expectFailure(
        await post('/LoginCustomer', ip, { email: 'nope', password: PASSWORD }),
        400,
        messages.loginInvalid,
      );
      expectFailure(
        await post('/LoginCustomer', ip, { email, password: `A1!${'a'.repeat(5000)}` }),
        400,
        messages.loginInvalid,
      );
      expectFailure(
        await post('/LoginCustomer', ip, { email, password: { $ne: null } }),
        400,
        messages.loginInvalid,
      );
    });

    it('ends the session at logout: the token is refused afterwards', async () => {
      const ip = nextIp();
      const email = nextEmail('logout');
      await registerVerified(email, ip);
      const token = await login(email, ip);
      const other = await login(email, ip);
      const out = await post('/Logout', ip, { email }, token);
      expect(out.json()).toEqual({ isSuccess: true, data: null, sys_message: messages.loggedOut });
      expectFailure(await call('GET', '/GetUserProfile', ip, undefined, token), 401);
      expectFailure(await post('/Logout', ip, { email }, token), 401);
      // Only that session ended; the other device stays logged in.
      expect((await call('GET', '/GetUserProfile', ip, undefined, other)).statusCode).toBe(200);
      expectFailure(await post('/Logout', ip, { email }), 401);
      expectFailure(await call('GET', '/GetUserProfile', ip), 401);
    });

    it('resets the password with an emailed code and ends every session', async () => {
      const ip = nextIp();
      const email = nextEmail('reset');
      await registerVerified(email, ip);
      const before = await login(email, ip);
      expect((await post('/SendResetOtp', ip, { email })).statusCode).toBe(200);
      const code = codeIn(await smtp.take(email));
      expectFailure(
        await post('/ResetPassword', ip, { email, otp: code, newPassword: 'weak' }),
        400,
        messages.resetPasswordRule,
      );
      expectFailure(
        await post('/ResetPassword', ip, { email, otp: '12', newPassword: 'New-Pass22' }),
        400,
        messages.resetOtpInvalid,
      );
      const res = await post('/ResetPassword', ip, { email, otp: code, newPassword: 'New-Pass22' });
      expect(res.statusCode).toBe(200);
      expectFailure(await call('GET', '/GetUserProfile', ip, undefined, before), 401);
      expectFailure(await post('/LoginCustomer', ip, { email, password: PASSWORD }), 401);
      await login(email, ip, 'New-Pass22');
      // The code was used up by the reset.
      expectFailure(await post('/ResetPassword', ip, { email, otp: code, newPassword: 'Other-Pass33' }), 400);
    });

    it('updates the profile, and the password only when a new valid one is given', async () => {
      const ip = nextIp();
      const email = nextEmail('profile');
      await registerVerified(email, ip);
      const token = await login(email, ip);
      const otherDevice = await login(email, ip);

      const put = (payload: unknown) => call('PUT', '/UpdateUserProfile', ip, payload, token);
      const res = await put({
        name: ' Asha V ',
        phone: '9123456789',
        address: '12 MG Road, Mohali',
        password: '',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        name: 'Asha V',
        phone: '9123456789',
        address: '12 MG Road, Mohali',
      });
      expect(res.body).not.toMatch(/password|scrypt/i);
      // An empty password kept the old one.
      await login(email, ip);

      expectFailure(await put({ password: 'short' }), 400, messages.passwordMin);
      expectFailure(await put({ phone: '12' }), 400, messages.phoneInvalid);
      expectFailure(await put({ name: '' }), 400, messages.nameRequired);
      expectFailure(await put({ email: nextEmail('elsewhere') }), 400, messages.emailChangeNotAllowed);
      expectFailure(await put({ address: 'x'.repeat(501) }), 400, messages.addressTooLong);
      expect((await put({ email: email.toUpperCase() })).statusCode).toBe(200);

      // A new password needs the current one: without it, or with a wrong one, nothing changes.
      expectFailure(await put({ password: 'Newer-Pass9' }), 400, accountMessages.currentPasswordRequired);
      expectFailure(
        await put({ password: 'Newer-Pass9', currentPassword: '' }),
        400,
        accountMessages.currentPasswordRequired,
      );
      expectFailure(
        await put({ password: 'Newer-Pass9', currentPassword: 'Wrong-Pass1' }),
        403,
        accountMessages.currentPasswordWrong,
      );
      expectFailure(
        await put({ name: 'Thief', password: 'Newer-Pass9', currentPassword: 'Wrong-Pass1' }),
        403,
        accountMessages.currentPasswordWrong,
      );
      // The refused change left the session, the password and the name as they were.
      expect((await call('GET', '/GetUserProfile', ip, undefined, token)).json().data.name).toBe('Asha V');
      expect((await call('GET', '/GetUserProfile', ip, undefined, otherDevice)).statusCode).toBe(200);
      await login(email, ip);

      const changed = await put({ password: 'Newer-Pass9', currentPassword: PASSWORD });
      expect(changed.statusCode).toBe(200);
      expect(changed.body).not.toMatch(/Newer-Pass9|scrypt/);
      expectFailure(await post('/LoginCustomer', ip, { email, password: PASSWORD }), 401);
      await login(email, ip, 'Newer-Pass9');
      // The other device's session ended; this one goes on.
      expectFailure(await call('GET', '/GetUserProfile', ip, undefined, otherDevice), 401);
      expect((await call('GET', '/GetUserProfile', ip, undefined, token)).statusCode).toBe(200);
      expectFailure(await call('PUT', '/UpdateUserProfile', ip, { name: 'X' }), 401);
    });

    it('answers code requests, forgot-password and register the same for known and unknown emails', async () => {
      const ip = nextIp();
      const known = nextEmail('known');
      await registerVerified(known, ip);
      const unknown = nextEmail('unknown');

      for (const url of ['/onlyotp', '/SendResetOtp']) {
        const a = await post(url, ip, { email: known });
        const b = await post(url, ip, { email: unknown });
        expect(a.statusCode).toBe(200);
        expect(b.statusCode).toBe(a.statusCode);
        expect(b.json()).toEqual(a.json());
        expect(b.headers['content-length']).toBe(a.headers['content-length']);
      }
      // Register: a verified email and a new one answer alike (the data only echoes the request).
      const again = await post('/CreateAccount', ip, registration(known, 'Another-Pass1'));
      const fresh = await post('/CreateAccount', ip, registration(unknown, 'Another-Pass1'));
      expect(again.statusCode).toBe(fresh.statusCode);
      expect({ ...again.json(), data: null }).toEqual({ ...fresh.json(), data: null });
      expect(again.json().data).toEqual({ email: known, phone: '9876543210' });

      // Known: a login code, a reset code and a notice (no code) for the repeated registration,
      // in whatever order they arrive (each mail goes out on its own).
      const got = await Promise.all([smtp.take(known), smtp.take(known), smtp.take(known)]);
      const subjects = got.map((m) => m.subject.replace(/\d{6}$/, 'CODE')).sort();
      expect(subjects).toEqual([
        'Someone tried to register with your email',
        'Your login code: CODE',
        'Your password reset code: CODE',
      ]);
      const notice = got.find((m) => m.subject.startsWith('Someone')) as (typeof got)[number];
      expect(notice.raw).not.toMatch(/\b\d{6}\b/);
      // The repeated registration changed nothing: the old password still logs in, the new one does not.
      await login(known, ip);
      expectFailure(await post('/LoginCustomer', ip, { email: known, password: 'Another-Pass1' }), 401);
      // Unknown: only the registration code of the account made just now.
      expect((await smtp.take(unknown)).subject).toMatch(/registration code/);
    });

    // Each wrong login spends a real scrypt hash (about 128 MiB, up to a second on a busy machine).
    // From other addresses the email is only slowed down, never refused: tests/api/lockout.test.ts.
    it('refuses the 11th login of an email from one address within 15 minutes with 429 and Retry-After', {
      timeout: 120_000,
    }, async () => {
      const email = nextEmail('limit');
      await registerVerified(email, nextIp());
      const ip = nextIp();
      for (let i = 0; i < 10; i++) {
        expectFailure(await post('/LoginCustomer', ip, { email, password: 'Wrong-Pass1' }), 401);
      }
      // Refused before the password is checked, even the right one.
      const limited = await post('/LoginCustomer', ip, { email, password: PASSWORD });
      expectFailure(limited, 429, messages.tooManyAttempts);
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    });

    it('refuses the 31st code request of an address within an hour, whatever the emails', async () => {
      const ip = nextIp();
      for (let i = 0; i < 30; i++) {
        expect((await post('/SendResetOtp', ip, { email: nextEmail('spray') })).statusCode).toBe(200);
      }
      const sprayed = await post('/SendResetOtp', ip, { email: nextEmail('spray') });
      expectFailure(sprayed, 429, messages.tooManyAttempts);
      expect(Number(sprayed.headers['retry-after'])).toBeGreaterThan(0);
      // Another address is not affected.
      expect((await post('/SendResetOtp', nextIp(), { email: nextEmail('spray') })).statusCode).toBe(200);
    });

    it('refuses the 6th code request and the 11th code check of one email from one address, known or not', async () => {
      const known = nextEmail('reqlimit');
      await registerVerified(known, nextIp());
      const unknown = nextEmail('reqghost');
      // Registering has a budget of its own: the known email's five login codes are all still there.
      for (const email of [known, unknown]) {
        const ip = nextIp();
        for (let i = 0; i < 5; i++) {
          expect((await post('/onlyotp', ip, { email })).statusCode).toBe(200);
        }
        expectFailure(await post('/onlyotp', ip, { email }), 429, messages.tooManyAttempts);
      }
      // Code checks: the budget is the same for an email with no account.
      const target = nextEmail('guess');
      const ip = nextIp();
      for (let i = 0; i < 10; i++) {
        expectFailure(await post('/VryOtpLogin', ip, { email: target, otp: String(100000 + i) }), 400);
      }
      const refused = await post('/VryOtpLogin', ip, { email: target, otp: '123456' });
      expectFailure(refused, 429, messages.tooManyAttempts);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    });

    it("counts rate limits in the database, so a second process sees the first one's hits", async () => {
      const other = await appOnSameDb({});
      try {
        const email = nextEmail('shared');
        const ip = nextIp();
        const ask = (app: typeof t.app) =>
          app.inject({ method: 'POST', url: '/api/onlyotp', remoteAddress: ip, payload: { email } });
        for (let i = 0; i < 3; i++) expect((await ask(t.app)).statusCode).toBe(200);
        for (let i = 0; i < 2; i++) expect((await ask(other.app)).statusCode).toBe(200);
        expectFailure(await ask(other.app), 429, messages.tooManyAttempts);
        expectFailure(await ask(t.app), 429, messages.tooManyAttempts);
      } finally {
        await other.close();
      }
    });

    it('answers before the mail is sent: a mail server that never speaks does not hold the request', async () => {
      // A TCP server that accepts and stays silent: the SMTP greeting never comes.
      const sockets = new Set<Socket>();
      let hangUp = false;
      let connected: () => void = () => {};
      const firstConnection = new Promise<void>((resolve) => {
        connected = resolve;
      });
      const silent = createServer((socket) => {
        // After the test, every retry of the mailer is hung up on at once, so the app can close.
        if (hangUp) return socket.destroy();
        sockets.add(socket);
        connected();
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as AddressInfo;
      const own = await appOnSameDb({ smtpUrl: `smtp://127.0.0.1:${port}` });
      try {
        const email = nextEmail('silent-smtp');
        const res = await own.app.inject({
          method: 'POST',
          url: '/api/CreateAccount',
          remoteAddress: nextIp(),
          payload: registration(email),
        });
        expect(res.statusCode).toBe(200);
        expect(res.json().sys_message).toBe(messages.otpSent);
        // The mail really is on its way (the app connects to the silent server), yet the answer came.
        await firstConnection;
        expect(sockets.size).toBeGreaterThan(0);
      } finally {
        hangUp = true;
        for (const socket of sockets) socket.destroy();
        await own.close();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    });

    it("keeps a shopper's login token off a real admin route and lets an admin's in", async () => {
      const ip = nextIp();
      const shopperEmail = nextEmail('shopper');
      await registerVerified(shopperEmail, ip);
      const shopper = await login(shopperEmail, ip);
      const adminEmail = nextEmail('boss');
      await createOrPromoteAdmin(t.app.db, adminEmail, 'Admin-Pass1', { setPassword: true });
      const admin = await post('/LoginCustomer', ip, { email: adminEmail, password: 'Admin-Pass1' });
      expect(admin.json().data.role).toBe('1');

      const categoryName = `Test ${Date.now().toString(36)}`;
      expectFailure(await post('/AddCategory', ip, { CategoryName: categoryName }, shopper), 403);
      expectFailure(await post('/AddCategory', ip, { CategoryName: categoryName }), 401);
      const added = await post('/AddCategory', ip, { CategoryName: categoryName }, admin.json().data.token);
      expect(added.statusCode).toBeLessThan(300);
      expect(added.json().isSuccess).toBe(true);
    });

    it('makes the admin from ADMIN_EMAIL at start, who then logs in with role "1"', async () => {
      const adminEmail = nextEmail('admin');
      const own = await appOnSameDb({ adminEmail: adminEmail.toUpperCase(), adminPassword: 'Admin-Pass1' });
      try {
        await runStartupTasks(own.app);
        await runStartupTasks(own.app); // idempotent: a second start changes nothing
        const users = await own.app.db
          .selectFrom('users')
          .selectAll()
          .where('email', '=', adminEmail)
          .execute();
        expect(users).toHaveLength(1);
        const res = await own.app.inject({
          method: 'POST',
          url: '/api/LoginCustomer',
          payload: { email: adminEmail, password: 'Admin-Pass1' },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json().data.role).toBe('1');
      } finally {
        await own.close();
      }
    });

    it("gives a stranger's unverified registration no way into the admin named later at start", async () => {
      const ip = nextIp();
      const ownerEmail = nextEmail('owner');
      const strangerPassword = 'Stranger-Pass1';
      // 1. The shop runs without ADMIN_EMAIL (t.app); 2. a stranger registers the address the
      // operator will name, with a password of their own, and never verifies it.
      expect((await post('/CreateAccount', ip, registration(ownerEmail, strangerPassword))).statusCode).toBe(
        200,
      );
      const strangerCode = codeIn(await smtp.take(ownerEmail));
      const pending = await t.app.db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', ownerEmail)
        .executeTakeFirstOrThrow();
      expect(pending.password_hash).not.toMatch(/^scrypt\$/);

      // 3. The operator restarts with ADMIN_EMAIL/ADMIN_PASSWORD.
      const own = await appOnSameDb({ adminEmail: ownerEmail, adminPassword: 'Admin-Pass1' });
      try {
        await runStartupTasks(own.app);
        const loginAs = (password: string) =>
          own.app.inject({
            method: 'POST',
            url: '/api/LoginCustomer',
            remoteAddress: ip,
            payload: { email: ownerEmail, password },
          });
        expectFailure(await loginAs(strangerPassword), 401, messages.loginWrongCredentials);
        const admin = await loginAs('Admin-Pass1');
        expect(admin.statusCode).toBe(200);
        expect(admin.json().data.role).toBe('1');
        // The stranger's pending registration is gone: its code no longer sets their password.
        expectFailure(
          await post('/verifiedOtploginCustomer', ip, { Email: ownerEmail, Otp: strangerCode }),
          400,
          messages.otpWrong,
        );
        expectFailure(await loginAs(strangerPassword), 401, messages.loginWrongCredentials);
      } finally {
        await own.close();
      }
    });

    it('keeps the password of a verified account that ADMIN_EMAIL promotes at start', async () => {
      const ip = nextIp();
      const email = nextEmail('promoted');
      await registerVerified(email, ip);
      const own = await appOnSameDb({ adminEmail: email, adminPassword: 'Admin-Pass1' });
      try {
        await runStartupTasks(own.app);
        const admin = await post('/LoginCustomer', ip, { email, password: PASSWORD });
        expect(admin.statusCode).toBe(200);
        expect(admin.json().data.role).toBe('1');
        expectFailure(
          await post('/LoginCustomer', ip, { email, password: 'Admin-Pass1' }),
          401,
          messages.loginWrongCredentials,
        );
      } finally {
        await own.close();
      }
    });

    it('sends no code to an unknown email and nothing at all for a refused request', async () => {
      // Mail goes out after the answer; closing the app waits for mail in flight, so
      // after close() the SMTP server has everything this app ever sent.
      const own = await appOnSameDb({});
      const unknown = nextEmail('silent');
      const ip = nextIp();
      const send = (url: string, payload: unknown) =>
        own.app.inject({ method: 'POST', url: `/api${url}`, remoteAddress: ip, payload: payload as object });
      expect((await send('/onlyotp', { email: unknown })).statusCode).toBe(200);
      expect((await send('/SendResetOtp', { email: unknown })).statusCode).toBe(200);
      expectFailure(await send('/CreateAccount', { ...registration(unknown), phone: '1' }), 400);
      await own.close();
      expect(smtp.to(unknown)).toEqual([]);
    });
  });
}
