import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Razorpay's Orders, Payments and Refunds APIs, faithful where the shop
 * depends on it: `POST /v1/orders`, `GET /v1/orders/:id`, `GET /v1/orders/:id/payments`,
 * `GET /v1/payments/:id`, `POST /v1/payments/:id/capture` and `POST /v1/payments/:id/refund`
 * (with `X-Refund-Idempotency`: at least 10 characters; the same key and body answer the same
 * refund, another body under it is a 400, a second request while the first is still being made a
 * 409), with HTTP basic auth (key_id:key_secret), the same entity fields and error shape, and
 * amounts in paise (at least 100, whole). `checkout()` makes what Razorpay's Checkout
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
  status: 'authorized' | 'captured' | 'refunded' | 'failed';
  order_id: string | null;
  method: 'upi';
  captured: boolean;
  amount_refunded: number;
  refund_status: null | 'partial' | 'full';
  created_at: number;
}

export interface DoubleRefund {
  id: string;
  entity: 'refund';
  amount: number;
  currency: 'INR';
  payment_id: string;
  notes: Record<string, string> | [];
  receipt: string | null;
  status: 'pending' | 'processed' | 'failed';
  speed_requested: 'normal';
  created_at: number;
  /** What the double stores of the request under its key, to tell a repeat from another body. */
  idempotencyKey: string | null;
  body: string;
}

export interface RazorpayDouble {
  url: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** The app's `razorpay` settings that point at this double (`testConfig`, `makeTestApp`). */
  settings: { keyId: string; keySecret: string; webhookSecret: string; apiUrl: string };
  orders: Map<string, DoubleOrder>;
  payments: Map<string, DoublePayment>;
  refunds: Map<string, DoubleRefund>;
  /** Every request the double received, for assertions. */
  requests: {
    method: string;
    path: string;
    authorized: boolean;
    headers: Record<string, string | undefined>;
  }[];
  /**
   * A payment of the order, as Checkout makes it; `capture: false` leaves it authorized (a shop
   * without automatic capture), and `at` sets its `created_at` (seconds), for a payment made earlier.
   */
  checkout(
    orderId: string,
    options?: { capture?: boolean; at?: number },
  ): {
    razorpay_payment_id: string;
    razorpay_order_id: string;
    razorpay_signature: string;
  };
  /** The spec's old client: Checkout opened with an amount only (no order), so no signature either. */
  payWithoutOrder(amount: number, status?: DoublePayment['status']): string;
  webhook(
    event: string,
    entities: { payment?: object; order?: object; refund?: object },
  ): { body: string; headers: Record<string, string> };
  /** Razorpay finishes a refund: its state moves, and the event's webhook body is answered. */
  settleRefund(
    refundId: string,
    to: 'processed' | 'failed',
  ): { body: string; headers: Record<string, string> };
  /**
   * Holds refund creation (POST /v1/payments/:id/refund) until `release()`: while one is held, a
   * second request under the same key is answered 409, as Razorpay answers a refund still in progress.
   */
  holdRefunds(): { arrived: Promise<void>; release(): void };
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
      amount_refunded: 0,
      refund_status: null,
      created_at: Math.floor(Date.now() / 1000),
    };
    payments.set(p.id, p);
    return p;
  };
  const refunds = new Map<string, DoubleRefund>();
  const refundsByKey = new Map<string, DoubleRefund>();
  const refundsMaking = new Set<string>();
  const requests: RazorpayDouble['requests'] = [];
  let hold: { gate: Promise<void>; arrive(): void } | null = null;
  let refundHold: { gate: Promise<void>; arrive(): void } | null = null;
  const signed = (body: string) => ({
    'content-type': 'application/json',
    'x-razorpay-signature': createHmac('sha256', webhookSecret).update(body).digest('hex'),
    'x-razorpay-event-id': `evt_${alnum(14)}`,
  });
  const eventBody = (event: string, entities: { payment?: object; order?: object; refund?: object }) => {
    const payload: Record<string, unknown> = {};
    if (entities.payment)
      payload.payment = { entity: { entity: 'payment', currency: 'INR', ...entities.payment } };
    if (entities.order) payload.order = { entity: { entity: 'order', currency: 'INR', ...entities.order } };
    if (entities.refund) {
      const { idempotencyKey: _k, body: _b, ...refund } = entities.refund as Partial<DoubleRefund>;
      payload.refund = { entity: { entity: 'refund', currency: 'INR', ...refund } };
    }
    return JSON.stringify({
      entity: 'event',
      account_id: 'acc_double',
      event,
      contains: Object.keys(payload),
      payload,
      created_at: Math.floor(Date.now() / 1000),
    });
  };
  const expected = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const authorized = req.headers.authorization === expected;
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]),
    );
    requests.push({ method: req.method ?? '', path: url.pathname, authorized, headers });
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
    const capture = /^\/v1\/payments\/([^/]+)\/capture$/.exec(url.pathname);
    if (req.method === 'POST' && capture) {
      const p = payments.get(capture[1] ?? '');
      if (!p) return send(res, 400, error('The id provided does not exist'));
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(await readBody(req)) as Record<string, unknown>;
      } catch {
        return send(res, 400, error('The request body is not valid JSON'));
      }
      if (p.status === 'captured') return send(res, 400, error('This payment has already been captured'));
      if (p.status !== 'authorized') {
        return send(
          res,
          400,
          error('Only payments which have been authorized and not yet captured can be captured'),
        );
      }
      if (input.amount !== p.amount) {
        return send(res, 400, error('Capture amount must be equal to the amount authorized', 'amount'));
      }
      p.status = 'captured';
      p.captured = true;
      return send(res, 200, p);
    }
    const refundMatch = /^\/v1\/payments\/([^/]+)\/refund$/.exec(url.pathname);
    if (req.method === 'POST' && refundMatch) {
      const raw = await readBody(req);
      const key = req.headers['x-refund-idempotency'];
      if (key !== undefined && (typeof key !== 'string' || key.length < 10)) {
        return send(res, 400, error('The idempotency key must be at least 10 characters.'));
      }
      if (typeof key === 'string') {
        const seen = refundsByKey.get(key);
        if (seen) {
          if (seen.body !== raw) {
            return send(
              res,
              400,
              error('The request body differs from the first request made with this idempotency key.'),
            );
          }
          return send(res, 200, seen);
        }
        if (refundsMaking.has(key)) {
          return send(res, 409, {
            error: {
              ...error('A request with this idempotency key is in progress.').error,
              code: 'BAD_REQUEST_ERROR',
            },
          });
        }
        refundsMaking.add(key);
      }
      try {
        if (refundHold) {
          refundHold.arrive();
          await refundHold.gate;
        }
        const p = payments.get(refundMatch[1] ?? '');
        if (!p) return send(res, 400, error('The id provided does not exist'));
        let input: Record<string, unknown>;
        try {
          input = JSON.parse(raw || '{}') as Record<string, unknown>;
        } catch {
          return send(res, 400, error('The request body is not valid JSON'));
        }
        if (p.status !== 'captured' && p.status !== 'refunded') {
          return send(res, 400, error('The payment has not been captured'));
        }
        const left = p.amount - p.amount_refunded;
        const amount = input.amount === undefined ? left : input.amount;
        if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100) {
          return send(res, 400, error('The amount must be atleast INR 1.00', 'amount'));
        }
        if (amount > left) {
          return send(
            res,
            400,
            error('The refund amount provided is greater than amount captured', 'amount'),
          );
        }
        const receipt = input.receipt === undefined ? null : String(input.receipt);
        if (receipt !== null && receipt.length > 40) {
          return send(res, 400, error('The receipt may not be greater than 40 characters.', 'receipt'));
        }
        const refund: DoubleRefund = {
          id: `rfnd_${alnum(14)}`,
          entity: 'refund',
          amount,
          currency: 'INR',
          payment_id: p.id,
          notes: (input.notes as Record<string, string> | undefined) ?? [],
          receipt,
          status: 'pending',
          speed_requested: 'normal',
          created_at: Math.floor(Date.now() / 1000),
          idempotencyKey: typeof key === 'string' ? key : null,
          body: raw,
        };
        refunds.set(refund.id, refund);
        if (typeof key === 'string') refundsByKey.set(key, refund);
        p.amount_refunded += amount;
        p.refund_status = p.amount_refunded === p.amount ? 'full' : 'partial';
        if (p.amount_refunded === p.amount) p.status = 'refunded';
        const { idempotencyKey: _k, body: _b, ...entity } = refund;
        return send(res, 200, entity);
      } finally {
        if (typeof key === 'string') refundsMaking.delete(key);
      }
    }
    const orderPayments = /^\/v1\/orders\/([^/]+)\/payments$/.exec(url.pathname);
    if (req.method === 'GET' && orderPayments) {
      const id = orderPayments[1] ?? '';
      if (!orders.has(id)) return send(res, 400, error('The id provided does not exist'));
      const items = [...payments.values()].filter((p) => p.order_id === id);
      return send(res, 200, { entity: 'collection', count: items.length, items });
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

  const url = `http://127.0.0.1:${actual}`;
  return {
    url,
    keyId,
    keySecret,
    webhookSecret,
    settings: { keyId, keySecret, webhookSecret, apiUrl: url },
    orders,
    payments,
    refunds,
    requests,
    checkout(orderId, options = {}) {
      const order = orders.get(orderId);
      const made = payment(
        order?.amount ?? 0,
        orderId,
        options.capture === false ? 'authorized' : 'captured',
      );
      if (options.at !== undefined) made.created_at = options.at;
      const paymentId = made.id;
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
      const body = eventBody(event, entities);
      return { body, headers: signed(body) };
    },
    settleRefund(refundId, to) {
      const refund = refunds.get(refundId);
      if (!refund) throw new Error(`no refund ${refundId}`);
      refund.status = to;
      const p = payments.get(refund.payment_id);
      if (to === 'failed' && p) {
        p.amount_refunded -= refund.amount;
        p.refund_status = p.amount_refunded === 0 ? null : 'partial';
        if (p.status === 'refunded') p.status = 'captured';
      }
      const entity =
        to === 'failed'
          ? {
              ...refund,
              error: {
                code: 'BAD_REQUEST_ERROR',
                description: 'The beneficiary bank did not accept the refund',
                reason: 'refund_failed',
              },
            }
          : refund;
      const body = eventBody(`refund.${to}`, { refund: entity, ...(p ? { payment: p } : {}) });
      return { body, headers: signed(body) };
    },
    holdRefunds() {
      let release: () => void = () => {};
      let arrive: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const arrived = new Promise<void>((resolve) => {
        arrive = resolve;
      });
      refundHold = { gate, arrive };
      return {
        arrived,
        release() {
          refundHold = null;
          release();
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
