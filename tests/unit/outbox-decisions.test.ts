import { describe, expect, it } from 'vitest';
import type { OrderRequestInput } from '../../domain/orders.js';
import type { OutboxProblem } from '../../domain/outbox.js';
import type { SlotOffer } from '../../domain/slots.js';
import {
  attentionPatch,
  canCancel,
  cartLinesBack,
  isDue,
  isTransportError,
  retryPatch,
  sentPatch,
  withDeliveryDate,
  withNewFigures,
  withOfferedSlot,
  withoutGoneLine,
} from '../../sw/outbox-decisions.js';
import { type OutboxRow, upgradeRow } from '../../sw/outbox-row.js';

/** The outbox's decisions without Dexie or fetch: a row in, what it becomes out. */

const request = (): OrderRequestInput => ({
  DeliveryDate: '2026-12-01',
  CustomerName: 'Asha',
  CustomerEmail: 'asha@example.com',
  CustomerPhone: '9876543210',
  CustomerAddress: 'House 12',
  State: 'Punjab',
  City: 'Mohali',
  CustomerPincode: '160062',
  PaymentMethod: 'Cash on Delivery',
  TotalAmount: 1150 + 150 - 100,
  CouponCode: 'SAVE100',
  OrderItems: [
    { ProductID: 1, VariationID: null, ProductName: 'Truffle', Price: 500, Quantity: 2 },
    { ProductID: 2, VariationID: 7, ProductName: 'Roses', Price: 150, Quantity: 1, CakeMessage: 'Hi' },
  ],
});

function row(patch: Partial<OutboxRow> = {}): OutboxRow {
  return upgradeRow({
    key: 'k1',
    userId: 7,
    state: 'attention',
    request: request(),
    figures: {
      subtotal: 1150,
      deliveryCharge: 150,
      slotCharge: 0,
      discount: 100,
      total: 1200,
      couponAmount: 100,
    },
    attempts: 3,
    nextAttemptAt: 1_000,
    createdAt: 0,
    updatedAt: 0,
    ...patch,
  });
}

const problem = (kind: OutboxProblem['kind'], data: unknown = null): OutboxProblem => ({
  kind,
  status: 409,
  message: 'm',
  data,
});

describe('the sender’s decisions', () => {
  it('sends a row when forced, abandoned mid-send, past its back-off, or refused only by the network once it is up', () => {
    const queued = { state: 'queued' as const, nextAttemptAt: 2_000, lastError: null };
    expect(isDue(queued, 1_000, { force: false, networkUp: false })).toBe(false);
    expect(isDue(queued, 2_000, { force: false, networkUp: false })).toBe(true);
    expect(isDue(queued, 1_000, { force: true, networkUp: false })).toBe(true);
    expect(isDue({ ...queued, state: 'sending' }, 1_000, { force: false, networkUp: false })).toBe(true);
    const offline = { ...queued, lastError: 'transport:network' };
    expect(isTransportError(offline.lastError)).toBe(true);
    expect(isDue(offline, 1_000, { force: false, networkUp: false })).toBe(false);
    expect(isDue(offline, 1_000, { force: false, networkUp: true })).toBe(true);
    expect(isDue({ ...queued, lastError: '503' }, 1_000, { force: false, networkUp: true })).toBe(false);
  });

  it('waits for Retry-After without drawing the jitter, else backs off from the attempts so far', () => {
    let draws = 0;
    const random = () => {
      draws += 1;
      return 1;
    };
    const told = retryPatch(
      row(),
      { kind: 'retry', afterMs: 30_000, transport: false, reason: '429' },
      5_000,
      random,
    );
    expect(told).toEqual({ state: 'queued', attempts: 4, nextAttemptAt: 35_000, lastError: '429' });
    expect(draws).toBe(0);
    // The fourth failure waits 2 s doubled three times (random 1: the whole of it).
    const own = retryPatch(
      row(),
      { kind: 'retry', afterMs: null, transport: true, reason: 'network' },
      5_000,
      random,
    );
    expect(own).toEqual({
      state: 'queued',
      attempts: 4,
      nextAttemptAt: 5_000 + 16_000,
      lastError: 'transport:network',
    });
    expect(draws).toBe(1);
  });

  it('keeps a placed order and only its photos’ ids; a refusal waits, with the token only for a sign-in', () => {
    const withPhoto = row({ photos: [{ item: 0, key: 'p1', blob: new Blob(['x']), photoID: 'ph-1' }] });
    const placed = { orderID: 5 } as Parameters<typeof sentPatch>[1]['order'];
    expect(sentPatch(withPhoto, { kind: 'sent', order: placed })).toEqual({
      state: 'sent',
      placed,
      problem: null,
      attempts: 0,
      lastError: null,
      refusedToken: null,
      photos: [{ item: 0, key: 'p1', photoID: 'ph-1' }],
    });
    expect(attentionPatch(problem('signin'), 'tok').refusedToken).toBe('tok');
    expect(attentionPatch(problem('repriced'), 'tok')).toEqual({
      state: 'attention',
      problem: problem('repriced'),
      attempts: 0,
      lastError: null,
      refusedToken: null,
    });
  });
});

describe('the shopper’s decisions', () => {
  const repriced = (applied: boolean) => ({
    reason: 'repriced',
    lines: [
      { old: { price: 500, lineTotal: 1000 }, new: { price: 550, lineTotal: 1100 } },
      { old: { price: 150, lineTotal: 150 }, new: { price: 150, lineTotal: 150 } },
    ],
    subtotal: 1250,
    deliveryCharge: 150,
    slotCharge: 0,
    discount: applied ? 100 : 0,
    total: { old: 1200, new: applied ? 1300 : 1400 },
    coupon: { code: 'SAVE100', applied, message: applied ? null : 'Expired' },
  });

  it('takes the new figures, dropping a coupon that no longer applies; nothing for another problem', () => {
    const patch = withNewFigures(row({ problem: problem('repriced', repriced(false)) }));
    expect(patch?.request?.OrderItems.map((i) => i.Price)).toEqual([550, 150]);
    expect(patch?.request?.TotalAmount).toBe(1400);
    expect(patch?.request?.CouponCode).toBeNull();
    expect(patch?.figures).toEqual({
      subtotal: 1250,
      deliveryCharge: 150,
      slotCharge: 0,
      discount: 0,
      total: 1400,
      couponAmount: 0,
      couponOff: null,
    });
    expect(withNewFigures(row({ problem: problem('repriced', repriced(true)) }))?.request?.CouponCode).toBe(
      'SAVE100',
    );
    expect(withNewFigures(row({ problem: problem('delivery-date') }))).toBeNull();
  });

  it('removes the gone line and re-totals, the coupon never more than the goods; never the last line', () => {
    const gone = { reason: 'product-gone', productID: 1 };
    const patch = withoutGoneLine(row({ problem: problem('product-gone', gone) }));
    expect(patch?.request?.OrderItems.map((i) => i.ProductID)).toEqual([2]);
    // 150 of goods: the coupon of 100 takes 100, delivery is paid.
    expect(patch?.figures).toMatchObject({ subtotal: 150, discount: 100, total: 150 + 150 - 100 });
    expect(patch?.request?.TotalAmount).toBe(200);
    const single = row({
      problem: problem('product-gone', gone),
      request: { ...request(), OrderItems: [request().OrderItems[0] as OrderRequestInput['OrderItems'][0]] },
    });
    expect(withoutGoneLine(single)).toBeNull();
  });

  it('re-totals a percentage coupon by its own terms when a line goes, not by the amount it took', () => {
    const gone = { reason: 'product-gone', productID: 1 };
    const base = row({ problem: problem('product-gone', gone) });
    const percent = {
      ...base,
      figures: { ...base.figures, couponOff: { kind: 'percent' as const, percent: 10, cap: 500 } },
    };
    // 150 of goods left: 10% is 15, where the flat amount kept would have taken 100.
    expect(withoutGoneLine(percent)?.figures).toMatchObject({
      subtotal: 150,
      discount: 15,
      total: 150 + 150 - 15,
    });
  });

  it('moves the date or the slot only where the refusal asked, and only to an offered slot', () => {
    expect(
      withDeliveryDate(row({ problem: problem('delivery-date') }), '2026-12-02')?.request?.DeliveryDate,
    ).toBe('2026-12-02');
    expect(withDeliveryDate(row({ problem: problem('slot') }), '2026-12-02')).toBeNull();
    const midnight: SlotOffer = {
      date: '2026-12-02',
      slotID: 6,
      name: 'Midnight',
      start: 1380,
      end: 1440,
      surcharge: 250,
    };
    const slotRow = row({
      problem: problem('slot', {
        reason: 'slot',
        problem: 'full',
        date: '2026-12-01',
        slotID: 2,
        slots: [],
        next: [midnight],
      }),
      figures: {
        subtotal: 1150,
        deliveryCharge: 150,
        slotCharge: 100,
        discount: 100,
        total: 1300,
        couponAmount: 100,
      },
    });
    const patch = withOfferedSlot(slotRow, midnight);
    expect(patch?.request).toMatchObject({
      DeliveryDate: '2026-12-02',
      DeliverySlotID: 6,
      TotalAmount: 1450,
    });
    expect(patch?.figures).toMatchObject({ slotCharge: 250, total: 1450 });
    expect(patch?.slot).toEqual(midnight);
    expect(withOfferedSlot(slotRow, { ...midnight, slotID: 5 })).toBeNull();
  });

  it('cancels only a refusal, and puts its lines back as chosen, at the new prices, in order', () => {
    expect(canCancel(row({ problem: problem('repriced') }))).toBe(true);
    // A Cash on Delivery refusal (the owner's rules) is given up with its lines back in the cart.
    expect(canCancel(row({ problem: problem('cod') }))).toBe(true);
    expect(canCancel(row({ problem: problem('signin') }))).toBe(false);
    expect(canCancel(row({ problem: problem('defect') }))).toBe(false);
    expect(canCancel(row({ state: 'queued', problem: null }))).toBe(false);
    const blob = new Blob(['photo']);
    const cancelled = row({
      problem: problem('repriced', repriced(true)),
      photos: [{ item: 0, key: 'p1', blob, photoID: null }],
      lines: [
        { productID: 2, variationID: 7, variationName: 'Weight', variationValue: '1 kg', baseSize: '0.5 kg' },
      ],
      request: {
        ...request(),
        OrderItems: [
          ...request().OrderItems,
          { ProductID: null, ProductName: 'By name', Price: 10, Quantity: 1 },
        ],
      },
    });
    const lines = cartLinesBack(cancelled, 9_000);
    expect(lines.map((l) => [l.key, l.price, l.addedAt])).toEqual([
      ['1:base:p:p1', 550, 9_000],
      ['2:7:m:Hi', 150, 9_001],
    ]);
    expect(lines[0]?.photo).toEqual({ key: 'p1', blob });
    expect(lines[1]).toMatchObject({
      cakeMessage: 'Hi',
      variationName: 'Weight',
      variationValue: '1 kg',
      baseSize: '0.5 kg',
    });
  });
});
