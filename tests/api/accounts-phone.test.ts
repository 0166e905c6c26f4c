import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giftMessages } from '../../domain/gifts.js';
import { messages } from '../../domain/messages.js';
import { tooLongMessage } from '../../domain/single-line.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { insertProduct, newKey, orderRequest } from '../support/order-fixtures.js';
import { codeIn, startSmtp, type TestSmtp } from '../support/smtp.js';

/**
 * Phone numbers as shoppers type them ("98765 01234", "+91 98765 01234", "09876501234") reach the
 * database as their 10 digits, on every dialect: the account's (register, profile), a gift
 * recipient's and a saved recipient's. And a name that is only too long is answered as such.
 */
const PASSWORD = 'Good-Pass1';
let n = 0;
const nextEmail = () => `phone${++n}.${Date.now().toString(36)}@example.test`;

function expectRefused(res: LightMyRequestResponse, message: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ isSuccess: false, sys_message: message });
}

for (const dialect of DIALECTS) {
  describe(`phone numbers on ${dialect}`, () => {
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

    const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: `/api${url}`, payload, headers });
    const phoneOf = async (email: string) =>
      (await t.app.db.selectFrom('users').select('phone').where('email', '=', email).executeTakeFirst())
        ?.phone;

    it('registers with "+91 98765 01234", keeps 9876501234, and logs in with it', async () => {
      const email = nextEmail();
      const registration = { name: 'Asha', email, password: PASSWORD, confirmPassword: PASSWORD };
      const res = await post('/CreateAccount', { ...registration, phone: '+91 98765 01234' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ email, phone: '9876501234' });
      const verified = await post('/verifiedOtploginCustomer', {
        Email: email,
        Otp: codeIn(await smtp.take(email)),
      });
      expect(verified.statusCode).toBe(200);
      expect(await phoneOf(email)).toBe('9876501234');
      const login = await post('/LoginCustomer', { email, password: PASSWORD });
      expect(login.json().data.phone).toBe('9876501234');

      expectRefused(
        await post('/CreateAccount', { ...registration, phone: '98765-01234' }),
        messages.phoneInvalid,
      );
      expectRefused(
        await post('/CreateAccount', { ...registration, phone: '1234567890' }),
        messages.phoneInvalid,
      );
      expectRefused(
        await post('/CreateAccount', { ...registration, name: 'Asha Verma '.repeat(12).slice(0, 124) }),
        messages.nameTooLong,
      );
    });

    it('changes the profile phone to "09876501234" or "98765 01234" as 10 digits', async () => {
      const user = await createUserWithToken(t.app, { phone: '9123456789' });
      const put = (payload: object) =>
        t.app.inject({ method: 'PUT', url: '/api/UpdateUserProfile', payload, headers: user.auth });
      for (const phone of ['09876501234', '98765 01234', '+919876501234']) {
        await t.app.db.updateTable('users').set({ phone: '9123456789' }).where('id', '=', user.id).execute();
        const res = await put({ phone });
        expect(res.statusCode).toBe(200);
        expect(res.json().data.phone).toBe('9876501234');
        expect(await phoneOf(user.email)).toBe('9876501234');
      }
      expectRefused(await put({ phone: '+1 98765 01234' }), messages.phoneInvalid);
      expectRefused(await put({ name: 'x'.repeat(124) }), messages.nameTooLong);
    });

    it("keeps a gift recipient's and a saved recipient's mobile as 10 digits", async () => {
      const user = await createUserWithToken(t.app);
      const cake = await insertProduct(t.app, { price: 600 });
      const place = (body: object) =>
        post('/place-order', body, { ...user.auth, 'idempotency-key': newKey() });

      const placed = await place(
        orderRequest([{ product: cake }], { Recipient: { Name: 'Dadi', Phone: '+91 98123 45678' } }),
      );
      expect(placed.statusCode).toBe(200);
      expect(placed.json().data.recipient).toEqual({ name: 'Dadi', phone: '9812345678' });
      const refused = await place(
        orderRequest([{ product: cake }], { Recipient: { Name: 'Dadi', Phone: '98123' } }),
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.json().sys_message).toBe(giftMessages.recipientPhone);
      // A name that is there but too long says so, not that it is required.
      const long = await place(orderRequest([{ product: cake }], { CustomerName: 'x'.repeat(124) }));
      expect(long.statusCode).toBe(400);
      expect(long.json().sys_message).toBe(tooLongMessage('Full Name', 100));

      const saved = await post(
        '/my-recipients',
        {
          name: 'Nana',
          phone: '098123 45679',
          address: '7 Mall Road',
          city: 'Ludhiana',
          state: 'Punjab',
          pincode: '141001',
        },
        user.auth,
      );
      expect(saved.statusCode).toBe(201);
      expect(saved.json().data.phone).toBe('9812345679');
    });
  });
}
