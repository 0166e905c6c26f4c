import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RATE_RULES } from '../../api/accounts/account.limits.js';
import { hashPassword } from '../../api/accounts/password.js';
import { insertUser } from '../../api/accounts/user.repository.js';
import { clientKey } from '../../api/ratelimit/address.js';
import { pacing, SLOW_DOWN } from '../../api/ratelimit/slowdown.js';
import { messages } from '../../domain/messages.js';
import { makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type CapturedMail, codeIn, startSmtp, type TestSmtp } from '../support/smtp.js';

/**
 * Someone who knows only a shopper's email spends every budget of it from their own address: wrong
 * passwords, login-code requests, wrong codes. The shopper, from their own address, must still
 * get in by every path; the stranger's address stays blocked; guesses spread over many addresses
 * are slowed, not refused. Mails go over real SMTP and codes are read from them. The slow-down's
 * waits are counted (`pacing.wait` is replaced), never spent or timed.
 */
const PASSWORD = 'Good-Pass1';
const FIRST = SLOW_DOWN.firstMs;

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.36.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};
let emailCounter = 0;
const nextEmail = (tag: string) => {
  emailCounter += 1;
  return `${tag}${emailCounter}.${Date.now().toString(36)}@example.test`;
};

function expectRefused(res: LightMyRequestResponse): void {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ isSuccess: false, data: null, sys_message: messages.tooManyAttempts });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe('the client address a limit counts', () => {
  it('is an IPv4 address itself, and an IPv6 address by its /64 network', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0DB8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('2001:db8::1.2.3.4')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    // Not an address (a test double, a unix socket): counted as given.
    expect(clientKey('')).toBe('');
    expect(clientKey('not-an-ip')).toBe('not-an-ip');
  });
});

for (const dialect of DIALECTS) {
  describe(`a stranger cannot lock a shopper out on ${dialect}`, () => {
    let t: TestApp;
    let smtp: TestSmtp;
    /** The slow-down's waits asked for since the test began, in order (milliseconds). */
    let waits: number[];

    beforeAll(async () => {
      smtp = await startSmtp();
      t = await makeTestApp(dialect, { smtpUrl: smtp.url });
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });
    beforeEach(() => {
      waits = [];
      vi.spyOn(pacing, 'wait').mockImplementation(async (ms: number) => {
        waits.push(ms);
      });
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });

    const call = (method: 'POST' | 'PUT', url: string, ip: string, payload: unknown, token?: string) =>
      t.app.inject({
        method,
        url: `/api${url}`,
        remoteAddress: ip,
        payload: payload as Record<string, unknown>,
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      });
    const post = (url: string, ip: string, payload: unknown) => call('POST', url, ip, payload);

    /** A shopper who registered and verified long ago (no budget of this hour spent on it). */
    async function shopper(tag: string): Promise<string> {
      const email = nextEmail(tag);
      const passwordHash = await hashPassword(PASSWORD);
      await insertUser(t.app.db, {
        name: 'Asha Verma',
        email,
        phone: '9876543210',
        passwordHash,
        verified: true,
      });
      return email;
    }

    /** The next mails to `email`, `n` of them, in whatever order they arrived. */
    const mails = (email: string, n: number): Promise<CapturedMail[]> =>
      Promise.all(Array.from({ length: n }, () => smtp.take(email)));

    /** The stranger's hour: every budget of the email spent from one address. */
    async function strangerSpends(email: string, ip: string): Promise<void> {
      for (let i = 0; i < RATE_RULES.login.pair.limit; i++) {
        expect((await post('/LoginCustomer', ip, { email, password: `Wrong-Pass${i}` })).statusCode).toBe(
          401,
        );
      }
      for (let i = 0; i < RATE_RULES.loginCode.pair.limit; i++) {
        expect((await post('/onlyotp', ip, { email })).statusCode).toBe(200);
      }
      // The owner's mailbox got a login code for each; none of them is the owner's.
      await mails(email, RATE_RULES.loginCode.pair.limit);
      for (let i = 0; i < RATE_RULES.codeCheck.pair.limit; i++) {
        const guess = { email, otp: String(100000 + i) };
        expect((await post('/VryOtpLogin', ip, guess)).statusCode).toBe(400);
      }
    }

    it('lets the owner in from their own address by every path after a stranger spent the email', async () => {
      const email = await shopper('owner');
      const ownerIp = nextIp();
      const strangerIp = nextIp();
      await strangerSpends(email, strangerIp);
      // Up to each limit nothing was slowed down.
      expect(waits).toEqual([]);

      const login = await post('/LoginCustomer', ownerIp, { email, password: PASSWORD });
      expect(login.statusCode).toBe(200);
      const forgot = await post('/SendResetOtp', ownerIp, { email });
      expect(forgot.statusCode).toBe(200);
      const newCode = await post('/onlyotp', ownerIp, { email });
      expect(newCode.statusCode).toBe(200);
      const got = await mails(email, 2);
      const loginCode = got.find((m) => /login code: \d{6}$/.test(m.subject));
      expect(got.filter((m) => /reset code: \d{6}$/.test(m.subject))).toHaveLength(1);
      const byCode = await post('/VryOtpLogin', ownerIp, { email, otp: codeIn(loginCode as CapturedMail) });
      expect(byCode.statusCode).toBe(200);
      const token = byCode.json().data.token as string;
      const change = await call(
        'PUT',
        '/UpdateUserProfile',
        ownerIp,
        { password: 'Newer-Pass9', currentPassword: PASSWORD },
        token,
      );
      expect(change.statusCode).toBe(200);
      expect((await post('/LoginCustomer', ownerIp, { email, password: 'Newer-Pass9' })).statusCode).toBe(
        200,
      );

      // The email's own count went past its limit on each path the stranger spent, so those answers
      // were slowed (the password's count twice: the login, then the current password of the change).
      // The reset request has a budget of its own, which the stranger never touched.
      expect(waits).toEqual([FIRST, FIRST, FIRST, 2 * FIRST, 4 * FIRST]);
    });

    it("keeps the stranger's address blocked for that email, and an address hammering many emails", async () => {
      const email = await shopper('target');
      const strangerIp = nextIp();
      await strangerSpends(email, strangerIp);

      // Refused, even with the right password (before any check), and at once: a refusal is not held.
      expectRefused(await post('/LoginCustomer', strangerIp, { email, password: PASSWORD }));
      expectRefused(await post('/onlyotp', strangerIp, { email }));
      expectRefused(await post('/VryOtpLogin', strangerIp, { email, otp: '999999' }));
      expect(waits).toEqual([]);

      // Hammering many emails from one address: its own count blocks it too.
      const hammer = nextIp();
      for (let i = 0; i < RATE_RULES.codeCheck.address.limit; i++) {
        const guess = { email: nextEmail('spread'), otp: '123456' };
        expect((await post('/VryOtpLogin', hammer, guess)).statusCode).toBe(400);
      }
      expectRefused(await post('/VryOtpLogin', hammer, { email: nextEmail('spread'), otp: '123456' }));
      // One IPv6 /64 is one client: its addresses share the counts.
      const net = '2001:db8:36:1';
      for (let i = 1; i <= RATE_RULES.loginCode.pair.limit; i++) {
        expect((await post('/onlyotp', `${net}::${i.toString(16)}`, { email })).statusCode).toBe(200);
      }
      expectRefused(await post('/onlyotp', `${net}::ffff`, { email }));
      await mails(email, RATE_RULES.loginCode.pair.limit);
    });

    it('accepts a right, live code over every count of the address and the email; wrong ones still count', async () => {
      const email = await shopper('code');
      const ip = nextIp();
      for (let i = 0; i < RATE_RULES.codeCheck.pair.limit; i++) {
        expect((await post('/VryOtpLogin', ip, { email, otp: String(200000 + i) })).statusCode).toBe(400);
      }
      expectRefused(await post('/VryOtpLogin', ip, { email, otp: '300000' }));

      // A code mailed now is accepted from that very address, at login and at a reset.
      expect((await post('/onlyotp', ip, { email })).statusCode).toBe(200);
      const loginCode = codeIn(await smtp.take(email));
      expect((await post('/VryOtpLogin', ip, { email, otp: loginCode })).statusCode).toBe(200);
      expect((await post('/SendResetOtp', ip, { email })).statusCode).toBe(200);
      const resetCode = codeIn(await smtp.take(email));
      expectRefused(await post('/ResetPassword', ip, { email, otp: '000000', newPassword: 'Other-Pass2' }));
      const reset = await post('/ResetPassword', ip, { email, otp: resetCode, newPassword: 'Other-Pass2' });
      expect(reset.statusCode).toBe(200);
      // Each code is still single use: replayed, it is refused (429 here: the address is over).
      expectRefused(await post('/VryOtpLogin', ip, { email, otp: loginCode }));
      expect((await post('/LoginCustomer', nextIp(), { email, password: 'Other-Pass2' })).statusCode).toBe(
        200,
      );
    });

    it('gives reset requests and login-code requests budgets of their own', async () => {
      const email = await shopper('buckets');
      const ip = nextIp();
      for (let i = 0; i < RATE_RULES.loginCode.pair.limit; i++) {
        expect((await post('/onlyotp', ip, { email })).statusCode).toBe(200);
      }
      expectRefused(await post('/onlyotp', ip, { email }));
      expect((await post('/SendResetOtp', ip, { email })).statusCode).toBe(200);
      const got = await mails(email, RATE_RULES.loginCode.pair.limit + 1);
      expect(got.filter((m) => /reset code/.test(m.subject))).toHaveLength(1);
    });

    it('slows a guesser spread over many addresses, within a bound, and never refuses them', async () => {
      const email = await shopper('spread');
      const over = 6;
      for (let i = 0; i < RATE_RULES.codeCheck.email.limit + over; i++) {
        expect((await post('/VryOtpLogin', nextIp(), { email, otp: String(400000 + i) })).statusCode).toBe(
          400,
        );
      }
      expect(waits).toEqual([FIRST, 2 * FIRST, 4 * FIRST, 8 * FIRST, SLOW_DOWN.maxMs, SLOW_DOWN.maxMs]);
    });

    it('still stops a session guessing the current password from its address', async () => {
      const email = await shopper('session');
      const ip = nextIp();
      const login = await post('/LoginCustomer', ip, { email, password: PASSWORD });
      const token = login.json().data.token as string;
      const change = (currentPassword: string) =>
        call('PUT', '/UpdateUserProfile', ip, { password: 'Newer-Pass9', currentPassword }, token);
      for (let i = 0; i < RATE_RULES.login.pair.limit; i++) {
        expect((await change(`Wrong-Pass${i}`)).statusCode).toBe(403);
      }
      expectRefused(await change(PASSWORD));
    });
  });
}
