/**
 * Placing an order: check where and when, re-price from the database, apply
 * the coupon, compare with what the shopper saw, verify an online payment,
 * then write the order, its lines, the coupon redemption, the payment link
 * and the idempotency answer in one transaction.
 */
import type { Kysely, Transaction } from 'kysely';
import { ok } from '../../domain/envelope.js';
import { messages } from '../../domain/messages.js';
import type { OrderRequest, PlacedOrder } from '../../domain/orders.js';
import { cartKey, paymentCartMessages } from '../../domain/payment-cart.js';
import { PAYMENT_METHODS } from '../../domain/payment-methods.js';
import { redeem } from '../coupons/coupon.service.js';
import type { Dialect } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { checkGiftLines, checkGiftPayment, saveOrderRecipient } from '../gifts/gift.service.js';
import { badRequest, conflict } from '../http/errors.js';
import { closeOpen } from '../payments/payment.repository.js';
import type { PaymentsService, VerifiedPayment } from '../payments/payment.service.js';
import type { ProviderPayment } from '../payments/provider.js';
import {
  findAnswer,
  type InFlight,
  lockKeyInTransaction,
  replay,
  requestHash,
  type StoredAnswer,
  storeAnswer,
  waitForKeyInTransaction,
} from './idempotency.js';
import { type KeptPricing, quote } from './order.quote.js';
import { insertOrder } from './order.repository.js';
import type { OrderFactsCache } from './order-facts.js';

/** What placing needs; the in-process key set is only the page's (`placeOrderOnce`). */
export type PlacingDeps = Omit<OrderDeps, 'inFlight'>;

export interface OrderDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  payments: PaymentsService;
  inFlight: InFlight;
  now(): Date;
  /** MAX_UNPAID_PER_SLOT: an account's unpaid orders one capped slot takes on one date. */
  maxUnpaidPerSlot: number;
  /** The process's catalogue facts per version (`order-facts.ts`); without it, each order reads them all. */
  orderFacts?: OrderFactsCache;
}

/**
 * Counts an attempt to place an order against the rate limits (throws 429). Called for every
 * attempt except a replay of a key already answered or still running: a device resending its
 * queued order after a lost answer is not a new order.
 */
export type CountAttempt = () => Promise<void>;

/** A payment the server already holds (a provider event), placing the order it was made for. */
export interface ServerPaid {
  payment: VerifiedPayment;
  /** When the shopper paid: the date, cut-off and gift rules are judged as at then. */
  judgedAt: Date;
  kept: KeptPricing;
}

async function placeInTransaction(
  deps: PlacingDeps,
  trx: Transaction<Database>,
  userId: number,
  key: string | null,
  body: OrderRequest,
  lookedUp: LookedUp | null,
  paid: ServerPaid | null = null,
): Promise<PlacedOrder> {
  const now = paid ? paid.judgedAt : deps.now();
  checkGiftPayment(body);
  // Only an order that holds its place without paying is capped per account: a paid one is not
  // hoarding (gifts to several people on one date still go).
  const cap = body.PaymentMethod === PAYMENT_METHODS.online ? null : { userId, max: deps.maxUnpaidPerSlot };
  const priced = await quote(trx, userId, body, now, {
    lock: { trx, dialect: deps.dialect },
    cap,
    kept: paid?.kept ?? null,
    paysOnline: deps.payments.provider !== null,
    facts: deps.orderFacts ? await deps.orderFacts.open(trx) : null,
  });
  await checkGiftLines(trx, userId, body.DeliveryDate, priced.lines, now);
  // A payment the server holds came in the provider's own event: there is no Checkout proof to check.
  let payment: VerifiedPayment | null = paid?.payment ?? null;
  if (!paid && body.PaymentMethod === PAYMENT_METHODS.online) {
    if (!deps.payments.provider) throw badRequest(messages.onlinePaymentUnavailable);
    if (lookedUp) {
      payment = await deps.payments.verifyLookedUp(trx, {
        userId,
        payment: lookedUp.payment,
        totalAmount: priced.totals.total,
      });
    } else {
      if (!body.RazorpayPaymentId || !body.RazorpayOrderId || !body.RazorpaySignature) {
        throw badRequest(messages.paymentRequired);
      }
      payment = await deps.payments.verifyCheckout(trx, {
        userId,
        providerOrderId: body.RazorpayOrderId,
        paymentId: body.RazorpayPaymentId,
        signature: body.RazorpaySignature,
        totalAmount: priced.totals.total,
      });
    }
  }
  const status = payment ? 'paid' : 'placed';
  // Recorded when written; a paid order's rules were judged as at the payment (`now` above).
  const t = deps.now().getTime();
  let orderId: number;
  try {
    orderId = await insertOrder(
      trx,
      {
        userId,
        idempotencyKey: key,
        status,
        deliveryDate: body.DeliveryDate,
        slot: priced.slot,
        customerName: body.CustomerName,
        customerEmail: body.CustomerEmail,
        customerPhone: body.CustomerPhone,
        customerAddress: body.CustomerAddress,
        state: priced.area.state,
        city: priced.area.city,
        pincode: body.CustomerPincode,
        paymentMethod: body.PaymentMethod,
        totals: priced.totals,
        couponCode: priced.coupon?.code ?? null,
        providerOrderId: payment?.providerOrderId ?? null,
        paymentId: payment?.paymentId ?? null,
        recipient: body.Recipient ?? null,
        hidePrice: body.HidePrice === true,
        hideSender: body.HideSender === true,
        card: body.Card ?? null,
        now: t,
      },
      priced.lines,
    );
  } catch (err) {
    // The only unique columns of an order are its payment's: another order already holds this payment.
    if (payment && isUniqueViolation(err)) throw conflict(messages.paymentAlreadyUsed);
    throw err;
  }
  if (priced.coupon) await redeem(trx, priced.coupon, userId, orderId, t);
  if (payment) await deps.payments.linkOrder(trx, payment, orderId);
  // This cart is ordered now: the account's other unpaid provider orders for it were abandoned
  // (a page that died in the UPI app, a Pay again never pressed). Closed, so paying one later is
  // refunded in full and says why, rather than placing the same cake twice.
  await closeOpen(trx, {
    userId,
    cartKey: cartKey(body),
    exceptId: payment?.paymentRowId ?? null,
    reason: paymentCartMessages.orderedAnotherWay(orderId),
    now: t,
  });
  await saveOrderRecipient(trx, userId, body);
  return {
    orderID: orderId,
    status,
    paymentMethod: body.PaymentMethod,
    deliveryDate: body.DeliveryDate,
    deliverySlot: {
      slotID: priced.slot.slotID,
      name: priced.slot.name,
      start: priced.slot.start,
      end: priced.slot.end,
    },
    subtotal: priced.totals.subtotal,
    deliveryCharge: priced.totals.deliveryCharge,
    slotCharge: priced.totals.slotCharge,
    discount: priced.totals.discount,
    totalAmount: priced.totals.total,
    couponCode: priced.coupon?.code ?? null,
    items: priced.lines.map(({ image: _image, takesMessage: _m, photoCake: _p, ...line }) => line),
    orderDate: new Date(t).toISOString(),
    recipient: body.Recipient ? { name: body.Recipient.Name, phone: body.Recipient.Phone } : null,
    hidePrice: body.HidePrice === true,
    hideSender: body.HideSender === true,
    card: body.Card ? { occasion: body.Card.Occasion, message: body.Card.Message } : null,
  };
}

/** A payment the provider was asked about (the spec's client: payment id without signature). */
interface LookedUp {
  payment: ProviderPayment | null;
}

async function lookUpPayment(deps: OrderDeps, body: OrderRequest): Promise<LookedUp | null> {
  if (body.PaymentMethod !== PAYMENT_METHODS.online || !deps.payments.provider) return null;
  if (!body.RazorpayPaymentId || body.RazorpaySignature) return null;
  return { payment: await deps.payments.lookupPayment(body.RazorpayPaymentId) };
}

export interface OrderAnswer {
  statusCode: number;
  /** The JSON envelope, exactly as stored for a replay. */
  body: string;
  replayed: boolean;
  /** The order this call placed; absent for a replay (its receipt went with the first answer). */
  placed?: PlacedOrder;
}

/**
 * The whole protocol: no key, place it; a key seen before, the stored answer
 * (422 for another body); a key running now, 409; otherwise place it and
 * store the answer in the same transaction.
 */
export async function placeOrderOnce(
  deps: OrderDeps,
  userId: number,
  key: string | null,
  body: OrderRequest,
  countAttempt: CountAttempt = async () => {},
): Promise<OrderAnswer> {
  const answer = (placed: PlacedOrder) => JSON.stringify(ok(placed, messages.orderPlaced));
  if (key === null) {
    await countAttempt();
    const lookedUp = await lookUpPayment(deps, body);
    const placed = await deps.db
      .transaction()
      .execute((trx) => placeInTransaction(deps, trx, userId, null, body, lookedUp));
    return { statusCode: 200, body: answer(placed), replayed: false, placed };
  }
  const hash = requestHash(body);
  const fromStore = (s: StoredAnswer): OrderAnswer => ({
    statusCode: replay(s, hash, body).statusCode,
    body: s.response,
    replayed: true,
  });
  // A finished key answers from the store at once, however many replays arrive together.
  const done = await findAnswer(deps.db, userId, key);
  if (done) return fromStore(done);
  const leave = deps.inFlight.enter(userId, key);
  try {
    await countAttempt();
    const lookedUp = await lookUpPayment(deps, body);
    try {
      return await deps.db.transaction().execute(async (trx) => {
        await lockKeyInTransaction(trx, deps.dialect, userId, key);
        // Another process may have finished this key between our first look and the lock.
        const again = await findAnswer(trx, userId, key);
        if (again) return fromStore(again);
        const placed = await placeInTransaction(deps, trx, userId, key, body, lookedUp);
        const response = answer(placed);
        await storeAnswer(trx, {
          userId,
          key,
          hash,
          orderId: placed.orderID,
          statusCode: 200,
          response,
          now: deps.now().getTime(),
        });
        return { statusCode: 200, body: response, replayed: false, placed };
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        const s = await findAnswer(deps.db, userId, key);
        if (s) return fromStore(s);
      }
      throw err;
    }
  } finally {
    leave();
  }
}

/** What the server's own placing of a paid order came to. */
export type ServerPlacement =
  /** Placed now, under the key, with the payment linked. */
  | { kind: 'placed'; orderId: number }
  /** The key was answered already (the page placed it, or another process did). */
  | { kind: 'answered' }
  /** The payment is settled another way (linked to an order, or refunded): nothing to place. */
  | { kind: 'settled' };

/**
 * Places a paid order the page never sent, from the request kept with its provider order, under
 * the same key, so the page's own `place-order` (late, or never) finds this very answer. The key's
 * lock is waited for, not refused: a page placing it right now finishes first, and this then sees
 * its answer. `stillOpen` checks the payment row under the lock (no order, no outcome yet).
 * Rate limits and the unpaid cap do not apply (the shopper paid); a refusal of the order's rules
 * is thrown as the HttpError it is.
 */
export async function placePaidOrder(
  deps: PlacingDeps,
  p: {
    userId: number;
    key: string;
    body: OrderRequest;
    /** The hash the page's own request has (kept with the provider order); else the body's. */
    hash?: string;
    paid: ServerPaid;
    stillOpen(trx: Transaction<Database>): Promise<boolean>;
  },
): Promise<ServerPlacement> {
  const hash = p.hash ?? requestHash(p.body);
  return deps.db.transaction().execute(async (trx): Promise<ServerPlacement> => {
    await waitForKeyInTransaction(trx, deps.dialect, p.userId, p.key);
    if (await findAnswer(trx, p.userId, p.key)) return { kind: 'answered' };
    if (!(await p.stillOpen(trx))) return { kind: 'settled' };
    const placed = await placeInTransaction(deps, trx, p.userId, p.key, p.body, null, p.paid);
    await storeAnswer(trx, {
      userId: p.userId,
      key: p.key,
      hash,
      orderId: placed.orderID,
      statusCode: 200,
      response: JSON.stringify(ok(placed, messages.orderPlaced)),
      now: deps.now().getTime(),
    });
    return { kind: 'placed', orderId: placed.orderID };
  });
}
