import { createHmac } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsApi } from '../../domain/accounts.contract.js';
import type { Endpoint } from '../../domain/contract.js';
import { ordersContract } from '../../domain/orders.contract.js';
import { paymentsContract } from '../../domain/payments.contract.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/**
 * Every accounts, orders, coupons and payments endpoint, fired with bodies no
 * client should send: broken JSON, the wrong content type, arrays and scalars
 * where an object belongs, wrong field types, huge strings, an oversize body,
 * prototype keys, nesting. Each must answer the envelope with a truthful 4xx,
 * never a 500 or a stack trace. The requests carry an admin token, so they get
 * past the access check and reach the body parser and the validation.
 */
const TRUTHFUL = [400, 401, 403, 404, 409, 413, 415, 422, 429];
const WEBHOOK_SECRET = 'bad-input-webhook-secret';

interface Target {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  /** The webhook needs a valid signature for its body to be read at all. */
  signed?: boolean;
  /** Logout ends the token's session: each body gets a token of its own. */
  freshToken?: boolean;
  /** Bodies that are a valid request here (every field optional) and so may succeed. */
  valid?: string[];
}

const TARGETS: Target[] = [
  { method: 'POST', url: '/api/CreateAccount' },
  { method: 'POST', url: '/api/verifiedOtploginCustomer' },
  { method: 'POST', url: '/api/onlyotp' },
  { method: 'POST', url: '/api/VryOtpLogin' },
  { method: 'POST', url: '/api/LoginCustomer' },
  {
    method: 'POST',
    url: '/api/Logout',
    freshToken: true,
    // The email of a logout is informative only (the token decides), so any string passes.
    valid: ['an empty object', 'deep nesting', 'invalid UTF-8'],
  },
  { method: 'POST', url: '/api/SendResetOtp' },
  { method: 'POST', url: '/api/ResetPassword' },
  // Unknown fields are ignored, so an object nesting only unknown keys is an empty form here.
  { method: 'PUT', url: '/api/UpdateUserProfile', valid: ['an empty object', 'deep nesting'] },
  { method: 'POST', url: '/api/place-order' },
  { method: 'POST', url: '/api/VerifyCoupon' },
  { method: 'PUT', url: '/api/orders/1/status' },
  { method: 'POST', url: '/api/payments/razorpay/order' },
  { method: 'POST', url: '/api/payments/test/pay' },
  { method: 'POST', url: '/api/payments/razorpay/webhook', signed: true },
];

const HUGE = 'x'.repeat(200_000);
const TOO_BIG = 'y'.repeat(300 * 1024);

interface BadBody {
  name: string;
  payload: string;
  contentType: string;
}

const JSON_TYPE = 'application/json';
const BODIES: BadBody[] = [
  { name: 'malformed JSON', payload: '{"email": "a@b.c",', contentType: JSON_TYPE },
  { name: 'empty JSON body', payload: '', contentType: JSON_TYPE },
  { name: 'text/plain', payload: 'email=a@b.c', contentType: 'text/plain' },
  {
    name: 'form-urlencoded',
    payload: 'email=a%40b.c&password=x',
    contentType: 'application/x-www-form-urlencoded',
  },
  { name: 'xml', payload: '<email>a@b.c</email>', contentType: 'application/xml' },
  { name: 'an empty array', payload: '[]', contentType: JSON_TYPE },
  { name: 'an array of objects', payload: '[{"email":"a@b.c","code":"SAVE200"}]', contentType: JSON_TYPE },
  { name: 'a string', payload: '"hello"', contentType: JSON_TYPE },
  { name: 'a number', payload: '42', contentType: JSON_TYPE },
  { name: 'null', payload: 'null', contentType: JSON_TYPE },
  { name: 'true', payload: 'true', contentType: JSON_TYPE },
  { name: 'an empty object', payload: '{}', contentType: JSON_TYPE },
  {
    name: 'fields of the wrong type',
    payload: JSON.stringify({
      email: { $ne: null },
      Email: ['a@b.c'],
      password: 12345678,
      otp: { code: 1 },
      Otp: true,
      code: ['SAVE200'],
      status: 7,
      OrderItems: 'cake',
      TotalAmount: 'lots',
      razorpay_order_id: { id: 1 },
    }),
    contentType: JSON_TYPE,
  },
  {
    name: 'huge strings in every field',
    payload: JSON.stringify({
      name: HUGE,
      email: `${HUGE}@example.test`,
      Email: `${HUGE}@example.test`,
      password: HUGE,
      confirmPassword: HUGE,
      newPassword: HUGE,
      phone: HUGE,
      otp: HUGE,
      Otp: HUGE,
      code: HUGE,
      status: HUGE,
      address: HUGE,
      CustomerName: HUGE,
      razorpay_order_id: HUGE,
    }),
    contentType: JSON_TYPE,
  },
  { name: 'a body over the size limit', payload: JSON.stringify({ email: TOO_BIG }), contentType: JSON_TYPE },
  {
    name: 'prototype keys',
    payload: '{"__proto__":{"isAdmin":true,"role":"1"},"constructor":{"prototype":{"role":"1"}}}',
    contentType: JSON_TYPE,
  },
  {
    name: 'deep nesting',
    payload: `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
    contentType: JSON_TYPE,
  },
  { name: 'invalid UTF-8', payload: '{"email":"\udc00\ud800"}', contentType: JSON_TYPE },
];

/** Bodies whose status is the same on every endpoint. */
const EXACT_STATUS: Record<string, number> = {
  'malformed JSON': 400,
  'empty JSON body': 400,
  // Fastify reads text/plain as a string, which is then not the object the form needs.
  'text/plain': 400,
  'form-urlencoded': 415,
  xml: 415,
  'a body over the size limit': 413,
  'prototype keys': 400,
};

/** GET endpoints take no body: odd query strings instead. */
const QUERIES: Array<{ url: string; name: string }> = [
  { url: '/api/GetOrderHistoryByEmail', name: 'no email' },
  { url: '/api/GetOrderHistoryByEmail?email=a@b.c&email=d@e.f', name: 'email twice' },
  { url: '/api/GetOrderHistoryByEmail?email[$ne]=x', name: 'email as an object' },
  { url: `/api/GetOrderHistoryByEmail?email=${'z'.repeat(5000)}@example.test`, name: 'a huge email' },
  { url: '/api/GetOrderHistoryByEmail?email=%E0%A4%A', name: 'broken percent-encoding' },
  { url: '/api/orders/abc/status', name: 'a non-numeric order id (PUT)' },
  { url: '/api/orders/99999999999999999999999/status', name: 'an order id past any integer (PUT)' },
  { url: '/api/orders/-1/status', name: 'a negative order id (PUT)' },
];

function sign(payload: string): string {
  return createHmac('sha256', WEBHOOK_SECRET).update(payload).digest('hex');
}

function expectEnvelope(res: { statusCode: number; body: string }, label: string) {
  expect(TRUTHFUL, `${label}: status ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(res.statusCode);
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    throw new Error(`${label}: answer is not JSON: ${res.body.slice(0, 200)}`);
  }
  expect(json, label).toMatchObject({ isSuccess: false, sys_message: expect.any(String) });
  expect(json, label).toHaveProperty('data');
  expect(res.body, label).not.toMatch(/at .*\.(ts|js):\d+|SQLITE_|syntax error at or near/);
}

for (const dialect of DIALECTS) {
  describe(`bad input on accounts, orders, coupons and payments (${dialect})`, () => {
    let t: TestApp;
    let auth: { authorization: string };

    beforeAll(async () => {
      t = await makeTestApp(dialect, {
        razorpay: {
          keyId: null,
          keySecret: null,
          webhookSecret: WEBHOOK_SECRET,
          apiUrl: 'http://127.0.0.1:9',
        },
        // The test provider's own route is among the targets.
        testPayments: true,
      });
      ({ auth } = await createUserWithToken(t.app, { role: '1' }));
    });
    afterAll(async () => t.close());

    for (const target of TARGETS) {
      it(`${target.method} ${target.url} answers every bad body with a 4xx envelope`, async () => {
        for (const bad of BODIES) {
          const headers: Record<string, string> = {
            ...(target.freshToken ? (await createUserWithToken(t.app)).auth : auth),
            'content-type': bad.contentType,
            'idempotency-key': '7d0c6a9e-8f0b-4c59-9a57-3f8f3b9f1b21',
          };
          if (target.signed) headers['x-razorpay-signature'] = sign(bad.payload);
          const options: InjectOptions = {
            method: target.method,
            url: target.url,
            headers,
            payload: bad.payload,
          };
          const res = await t.app.inject(options);
          // A signed webhook that is JSON but not a payment event is acknowledged (Razorpay must stop
          // retrying it), so for the webhook an array, a scalar or an empty object may be a 200 that
          // handled nothing. Every other answer is a refusal.
          if (target.valid?.includes(bad.name)) {
            expect(res.statusCode, `${target.url} with ${bad.name}`).toBe(200);
            continue;
          }
          if (target.signed && res.statusCode === 200) {
            expect(res.json(), bad.name).toMatchObject({ isSuccess: true, data: { handled: false } });
            continue;
          }
          expectEnvelope(res, `${target.method} ${target.url} with ${bad.name}`);
          const exact = EXACT_STATUS[bad.name];
          if (exact) expect(res.statusCode, `${target.url} with ${bad.name}`).toBe(exact);
        }
      });
    }

    it('the webhook refuses bad bodies that are not signed, and signatures of the wrong shape', async () => {
      for (const bad of BODIES) {
        for (const signature of [undefined, '', 'zz', sign('other'), HUGE.slice(0, 5000)]) {
          const res = await t.app.inject({
            method: 'POST',
            url: '/api/payments/razorpay/webhook',
            headers: {
              'content-type': bad.contentType,
              ...(signature === undefined ? {} : { 'x-razorpay-signature': signature }),
            },
            payload: bad.payload,
          });
          expectEnvelope(res, `webhook with ${bad.name}, signature ${String(signature).slice(0, 10)}`);
        }
      }
    });

    it('GET endpoints and path ids answer odd queries with a 4xx envelope', async () => {
      for (const q of QUERIES) {
        const method = q.url.includes('/status') ? 'PUT' : 'GET';
        const res = await t.app.inject({
          method,
          url: q.url,
          headers: auth,
          ...(method === 'PUT' ? { payload: { status: 'confirmed' } } : {}),
        });
        expectEnvelope(res, `${method} ${q.name}`);
      }
    });

    it('every endpoint that needs a session answers 401 without one, and admin ones 403 to a shopper', async () => {
      const shopper = await createUserWithToken(t.app);
      const endpoints: Endpoint[] = [
        ...Object.values(accountsApi),
        ...Object.values(ordersContract),
        ...Object.values(paymentsContract),
      ];
      const guarded = endpoints.filter((e) => e.access !== 'public');
      expect(guarded.length).toBeGreaterThan(8);
      for (const e of guarded) {
        const url = `/api${e.path.replace(/\{\w+\}/g, '1')}`;
        const body = e.method === 'GET' ? {} : { payload: {} };
        const anonymous = await t.app.inject({ method: e.method, url, ...body });
        expect(anonymous.statusCode, `${e.method} ${url} without a token`).toBe(401);
        expectEnvelope(anonymous, `${e.method} ${url} without a token`);
        if (e.access === 'admin') {
          const res = await t.app.inject({ method: e.method, url, headers: shopper.auth, ...body });
          expect(res.statusCode, `${e.method} ${url} with a shopper token`).toBe(403);
          expectEnvelope(res, `${e.method} ${url} with a shopper token`);
        }
      }
    });

    it('headers of the wrong shape on place-order answer a 4xx envelope', async () => {
      for (const key of ['not-a-uuid', 'x'.repeat(5000), '', ' ']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/place-order',
          headers: { ...auth, 'idempotency-key': key },
          payload: {},
        });
        expectEnvelope(res, `idempotency key "${key.slice(0, 10)}"`);
      }
      for (const authorization of [
        'Bearer',
        'Bearer x.y.z',
        `Bearer ${'a'.repeat(10_000)}`,
        'Basic Zm9vOmJhcg==',
      ]) {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/GetUserProfile',
          headers: { authorization },
        });
        expect(res.statusCode, authorization.slice(0, 20)).toBe(401);
        expectEnvelope(res, `authorization ${authorization.slice(0, 20)}`);
      }
    });
  });
}
