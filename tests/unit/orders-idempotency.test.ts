import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, requestHash } from '../../api/orders/idempotency.js';
import { checkoutSignatureValid, webhookSignatureValid } from '../../api/payments/signature.js';

describe('canonical request body', () => {
  it('ignores key order at every level and undefined fields', () => {
    const a = { b: 1, a: [{ y: 2, x: 1 }], c: undefined };
    const b = { a: [{ x: 1, y: 2 }], b: 1 };
    expect(canonicalJson(a)).toBe('{"a":[{"x":1,"y":2}],"b":1}');
    expect(requestHash(a)).toBe(requestHash(b));
  });
  it('tells apart what differs, array order included', () => {
    expect(requestHash({ a: [1, 2] })).not.toBe(requestHash({ a: [2, 1] }));
    expect(requestHash({ a: 1 })).not.toBe(requestHash({ a: '1' }));
    expect(requestHash({ a: null })).not.toBe(requestHash({}));
  });
});

describe('Razorpay signatures', () => {
  const secret = 'key_secret_for_tests';
  const sign = (payload: string) => createHmac('sha256', secret).update(payload).digest('hex');

  it('accepts the HMAC-SHA256 of order_id|payment_id', () => {
    const sig = sign('order_ABC|pay_XYZ');
    expect(checkoutSignatureValid(secret, 'order_ABC', 'pay_XYZ', sig)).toBe(true);
    expect(checkoutSignatureValid(secret, 'order_ABC', 'pay_XYZ', sig.toUpperCase())).toBe(true);
  });
  it('refuses other ids, other secrets, and malformed signatures without throwing', () => {
    const sig = sign('order_ABC|pay_XYZ');
    expect(checkoutSignatureValid(secret, 'order_ABD', 'pay_XYZ', sig)).toBe(false);
    expect(checkoutSignatureValid('other', 'order_ABC', 'pay_XYZ', sig)).toBe(false);
    for (const bad of ['', 'zz', sig.slice(0, 10), `${sig}00`, `${sig.slice(0, 63)}g`]) {
      expect(checkoutSignatureValid(secret, 'order_ABC', 'pay_XYZ', bad)).toBe(false);
    }
  });
  it('checks webhooks over the exact bytes', () => {
    const body = Buffer.from('{"event":"payment.captured"}');
    const sig = sign(body.toString());
    expect(webhookSignatureValid(secret, body, sig)).toBe(true);
    expect(webhookSignatureValid(secret, Buffer.from('{"event": "payment.captured"}'), sig)).toBe(false);
  });
});
