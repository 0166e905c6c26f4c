/**
 * Razorpay's two signatures. Checkout signs `order_id|payment_id` with the key
 * secret; webhooks sign the raw request body with the webhook secret. Both are
 * hex HMAC-SHA256, compared in constant time so a forger learns nothing from
 * how long a refusal takes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function hmacHex(secret: string, payload: string | Buffer): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/** Both signatures are hex SHA-256: exactly 64 digits (Buffer.from would drop a 65th odd one). */
const SHA256_HEX = /^[0-9a-f]{64}$/i;

export function safeEqualHex(expectedHex: string, givenHex: string): boolean {
  if (!SHA256_HEX.test(givenHex)) return false;
  const a = Buffer.from(expectedHex, 'hex');
  const b = Buffer.from(givenHex.toLowerCase(), 'hex');
  // timingSafeEqual throws on different lengths; the length of a SHA-256 digest is no secret.
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `orderId` must be the provider order id the server stored, never one the client chose. */
export function checkoutSignatureValid(
  keySecret: string,
  orderId: string,
  paymentId: string,
  signature: string,
): boolean {
  return safeEqualHex(hmacHex(keySecret, `${orderId}|${paymentId}`), signature);
}

export function webhookSignatureValid(webhookSecret: string, rawBody: Buffer, signature: string): boolean {
  return safeEqualHex(hmacHex(webhookSecret, rawBody), signature);
}
