import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Razorpay's Orders API, faithful where the shop depends
 * on it: `POST /v1/orders` and `GET /v1/orders/:id` with HTTP basic auth
 * (key_id:key_secret), the same entity fields and error shape, and amounts in
 * paise (at least 100, whole). `checkout()` makes what Razorpay's Checkout
 * hands the page after a payment (payment id and the HMAC-SHA256 signature of
 * `order_id|payment_id` under the key secret), and `webhook()` signs an event
 * body the way Razorpay's webhooks do. Written from Razorpay's documentation,
 * independently of the server's code, so a mistake is not shared.
 */
export interface DoubleOrder {
  id: string;
  entity: 'order';
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  offer_id: null;
  status: 'created' | 'attempted' | 'paid';
  attempts: number;
  notes: Record<string, string> | [];
  created_at: number;
}

export interface DoublePayment {
  id: string;
  entity: 'payment';
  amount: number;
  currency: 'INR';
  status: 'authorized' | 'captured' | 'failed';
  order_id: string | null;
  method: 'upi';
  captured: boolean;
  created_at: number;
}

export interface RazorpayDouble {
  url: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  orders: Map<string, DoubleOrder>;
  payments: Map<string, DoublePayment>;
  /** Every request the double received, for assertions. */
  requests: { method: string; path: string; authorized: boolean }[];
  checkout(orderId: string): {
    razorpay_payment_id: string;
    razorpay_order_id: string;
    razorpay_signature: string;
  };
  /** The spec's old client: Checkout opened with an amount only (no order), so no signature either. */
  payWithoutOrder(amount: number, status?: DoublePayment['status']): string;
  webhook(
    event: string,
    entities: { payment?: Record<string, unknown>; order?: Record<string, unknown> },
  ): { body: string; headers: Record<string, string> };
  /**
   * Holds every payment lookup (GET /v1/payments/:id) until `release()`:
   * `arrived` resolves when the first held lookup came in, so a test knows a
   * place-order is running, mid-flight, without timing anything.
   */
  holdPaymentLookups(): { arrived: Promise<void>; release(): void };
  close(): Promise<void>;
}

const alnum = (n: number) =>
  Array.from(
    randomBytes(n),
    (b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[b % 62],
  ).join('');

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const error = (description: string, field?: string) => ({
  error: {
    code: 'BAD_REQUEST_ERROR',
    description,
    source: 'business',
    step: 'payment_initiation',
    reason: 'input_validation_failed',
    metadata: {},
    ...(field ? { field } : {}),
  },
});

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startRazorpayDouble(port = 0): Promise<RazorpayDouble> {
  const keyId = `rzp_test_${alnum(14)}`;
  const keySecret = alnum(24);
  const webhookSecret = alnum(20);
  const orders = new Map<string, DoubleOrder>();
  const payments = new Map<string, DoublePayment>();
  const payment = (
    amount: number,
    orderId: string | null,
    status: DoublePayment['status'],
  ): DoublePayment => {
    const p: DoublePayment = {
      id: `pay_${alnum(14)}`,
      entity: 'payment',
      amount,
      currency: 'INR',
      status,
      order_id: orderId,
      method: 'upi',
      captured: status === 'captured',
      created_at: Math.floor(Date.now() / 1000),
    };
    payments.set(p.id, p);
    return p;
  };
  const requests: RazorpayDouble['requests'] = [];
  let hold: { gate: Promise<void>; arrive(): void } | null = null;
  const expected = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const authorized = req.headers.authorization === expected;
    requests.push({ method: req.method ?? '', path: url.pathname, authorized });
    if (!authorized) return send(res, 401, error('Authentication failed'));

    if (req.method === 'POST' && url.pathname === '/v1/orders') {
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(await readBody(req)) as Record<string, unknown>;
      } catch {
        return send(res, 400, error('The request body is not valid JSON'));
      }
      const amount = input.amount;
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100) {
        return send(res, 400, error('The amount must be atleast INR 1.00', 'amount'));
      }
      if (input.currency !== 'INR') return send(res, 400, error('The currency is invalid.', 'currency'));
      const receipt = input.receipt === undefined ? null : String(input.receipt);
      if (receipt !== null && receipt.length > 40) {
        return send(res, 400, error('The receipt may not be greater than 40 characters.', 'receipt'));
      }
      const order: DoubleOrder = {
        id: `order_${alnum(14)}`,
        entity: 'order',
        amount,
        amount_paid: 0,
        amount_due: amount,
        currency: 'INR',
        receipt,
        offer_id: null,
        status: 'created',
        attempts: 0,
        notes: (input.notes as Record<string, string> | undefined) ?? [],
        created_at: Math.floor(Date.now() / 1000),
      };
      orders.set(order.id, order);
      return send(res, 200, order);
    }
    const paymentMatch = /^\/v1\/payments\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && paymentMatch) {
      if (hold) {
        hold.arrive();
        await hold.gate;
      }
      const p = payments.get(paymentMatch[1] ?? '');
      return p ? send(res, 200, p) : send(res, 400, error('The id provided does not exist'));
    }
    const match = /^\/v1\/orders\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && match) {
      const order = orders.get(match[1] ?? '');
      return order ? send(res, 200, order) : send(res, 400, error('The id provided does not exist'));
    }
    return send(res, 404, error('The requested URL was not found on the server.'));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: actual } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${actual}`,
    keyId,
    keySecret,
    webhookSecret,
    orders,
    payments,
    requests,
    checkout(orderId) {
      const order = orders.get(orderId);
      const paymentId = payment(order?.amount ?? 0, orderId, 'captured').id;
      const signature = createHmac('sha256', keySecret).update(`${orderId}|${paymentId}`).digest('hex');
      if (order) {
        order.status = 'paid';
        order.amount_paid = order.amount;
        order.amount_due = 0;
        order.attempts += 1;
      }
      return { razorpay_payment_id: paymentId, razorpay_order_id: orderId, razorpay_signature: signature };
    },
    payWithoutOrder(amount, status = 'captured') {
      return payment(amount, null, status).id;
    },
    webhook(event, entities) {
      const payload: Record<string, unknown> = {};
      if (entities.payment)
        payload.payment = { entity: { entity: 'payment', currency: 'INR', ...entities.payment } };
      if (entities.order) payload.order = { entity: { entity: 'order', currency: 'INR', ...entities.order } };
      const body = JSON.stringify({
        entity: 'event',
        account_id: 'acc_double',
        event,
        contains: Object.keys(payload),
        payload,
        created_at: Math.floor(Date.now() / 1000),
      });
      const signature = createHmac('sha256', webhookSecret).update(body).digest('hex');
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'x-razorpay-signature': signature,
          'x-razorpay-event-id': `evt_${alnum(14)}`,
        },
      };
    },
    holdPaymentLookups() {
      let release: () => void = () => {};
      let arrive: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const arrived = new Promise<void>((resolve) => {
        arrive = resolve;
      });
      hold = { gate, arrive };
      return {
        arrived,
        release() {
          hold = null;
          release();
        },
      };
    },
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
