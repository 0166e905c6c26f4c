import { act, cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { SEED_AREAS } from '../../domain/delivery-areas.js';
import { formatRupees } from '../../domain/money.js';
import { type ShopperOrder, WAITING_TO_BE_SENT } from '../../domain/order-tracking.js';
import type { OrderHistoryRow, OrderRequestInput, PlacedOrder } from '../../domain/orders.js';
import { nightOfLabel } from '../../domain/slots.js';
import { db } from '../../sw/db.js';
import { type OutboxRow, upgradeRow } from '../../sw/outbox-row.js';
import { setPwaState } from '../../web/pwa/pwa-state.js';
import { placedAnswer } from '../support/order-fixtures.js';
import { queuedRow } from '../support/shopper.js';
import { renderAt, resetStore, url } from './storefront-fixtures.js';

/**
 * What the shopper reads of an order on order success (placed and queued), My Orders (the phone's
 * queued orders and the history kept on the device) and the order page, in jsdom over
 * fake-indexeddb, offline so nothing reaches for the network: each line says what was chosen
 * ("Weight: 1 kg"), how many and at what price; the bill adds up; the states and the payment
 * method read the same everywhere.
 */
function token(userId: number): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256' })}.${b64({ sub: userId, exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;
}
const shopper = {
  token: token(7),
  role: '0',
  veryOtpLoginID: 7,
  email: 'asha@example.com',
  phone: '9876543210',
};
function signIn(): void {
  localStorage.setItem('token', shopper.token);
  localStorage.setItem('userId', '7');
  localStorage.setItem('email', shopper.email);
  localStorage.setItem('phone', shopper.phone);
}

// Order success and the order page are lazy chunks: their first import in jsdom takes seconds.
configure({ asyncUtilTimeout: 15_000 });

const TRUFFLE = 'Chocolate Truffle Delight';
const MIDNIGHT = { slotID: 3, name: 'Midnight', start: 23 * 60, end: 24 * 60 };
/** Items ₹1,199 + delivery ₹200 + Midnight ₹250 − SAVE200 ₹200 = ₹1,449. */
const BILL = { subtotal: 1199, deliveryCharge: 200, slotCharge: 250, discount: 200, total: 1449 };

/** A row of one 1 kg truffle cake (variation 51), queued with the bill above. */
function truffleRow(key: string): OutboxRow {
  const row = queuedRow(shopper, { productID: 5, title: TRUFFLE, price: 1199 }, key, Date.now());
  const [item] = row.request.OrderItems;
  if (!item) throw new Error('queuedRow made no line');
  row.request = {
    ...row.request,
    OrderItems: [{ ...item, VariationID: 51, Price: 1199, ProductImage: '/media/p5-320.webp' }],
    TotalAmount: BILL.total,
    CouponCode: 'SAVE200',
    DeliverySlotID: MIDNIGHT.slotID,
  } satisfies OrderRequestInput;
  row.figures = { ...BILL, couponAmount: 200 };
  row.slot = { ...MIDNIGHT, date: row.request.DeliveryDate, surcharge: 250 };
  row.lines = [
    { productID: 5, variationID: 51, variationName: 'Weight', variationValue: '1 kg', baseSize: null },
  ];
  return row;
}

function placed(row: OutboxRow, over: Partial<PlacedOrder> = {}): PlacedOrder {
  return {
    ...placedAnswer(41, row.request, [
      {
        productID: 5,
        variationID: 51,
        productName: TRUFFLE,
        variationName: 'Weight',
        variationValue: '1 kg',
        unitPrice: 1199,
        quantity: 1,
        lineTotal: 1199,
      },
    ]),
    subtotal: BILL.subtotal,
    deliveryCharge: BILL.deliveryCharge,
    slotCharge: BILL.slotCharge,
    discount: BILL.discount,
    totalAmount: BILL.total,
    couponCode: 'SAVE200',
    deliverySlot: MIDNIGHT,
    paymentMethod: 'Razorpay',
    ...over,
  };
}

/** The bill's rows as [label, amount], and a check that the amounts add up to the total. */
function billOf(container: HTMLElement): [string, string][] {
  const bill = container.querySelector('dl.co-totals');
  if (!bill) throw new Error('no bill on the screen');
  const rows = [...bill.querySelectorAll(':scope > div')].map(
    (div) =>
      [div.querySelector('dt')?.textContent ?? '', div.querySelector('dd')?.textContent ?? ''] as [
        string,
        string,
      ],
  );
  const rupees = (s: string) => Number(s.replace(/[^\d]/g, '')) * (s.includes('−') ? -1 : 1);
  const total = rows.at(-1);
  const parts = rows.slice(0, -1).reduce((sum, [, amount]) => sum + rupees(amount), 0);
  expect(total?.[0]).toBe('Total');
  expect(parts).toBe(rupees(total?.[1] ?? ''));
  return rows;
}

const EXPECTED_BILL: [string, string][] = [
  ['Subtotal', formatRupees(1199)],
  ['Delivery Charges', formatRupees(200)],
  ['Midnight delivery (11 PM – 12 AM)', formatRupees(250)],
  ['Coupon SAVE200', `−${formatRupees(200)}`],
  ['Total', `${formatRupees(1449)} INR`],
];

/** The line's words: title, option, "quantity × price". */
function lineText(name: string): string[] {
  const title = screen.getAllByText(name, { selector: '.order-item__title, .order-item__title *' })[0];
  const text = title?.closest('.order-item__text');
  if (!text) throw new Error(`no line ${name}`);
  return [...text.children].map((c) => c.textContent ?? '');
}

beforeEach(async () => {
  await resetStore();
  setPwaState({ offline: true });
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
});
afterEach(() => {
  cleanup();
  setPwaState({ offline: false });
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
});

describe('order success', { timeout: 30_000 }, () => {
  it('placed: each line says what was chosen, the bill adds up with delivery, slot and coupon, "Paid online"', async () => {
    const row = truffleRow('k-placed');
    await db.outbox.put({ ...row, state: 'sent', placed: placed(row), announced: true });
    signIn();
    const { container } = renderAt('/order-success?order=k-placed');
    await screen.findByRole('heading', { level: 1, name: t.successTitle });
    expect(billOf(container)).toEqual(EXPECTED_BILL);
    expect(lineText(TRUFFLE)).toEqual([TRUFFLE, 'Weight: 1 kg', `1 × ${formatRupees(1199)}`]);
    expect(screen.getByText('Paid online')).toBeTruthy();
    expect(screen.queryByText('Razorpay')).toBeNull();
    expect(container.querySelector('.co-chip')?.textContent).toBe('Placed');
  });

  it('queued: the lines as the cart chose them (kept by the row), the checkout’s figures, waiting to be sent', async () => {
    await db.outbox.put(truffleRow('k-queued'));
    signIn();
    const { container } = renderAt('/order-success?order=k-queued');
    await screen.findByRole('heading', { level: 1, name: t.successQueuedTitle });
    // The catalogue on the device does not have the product: the row's own record names the option.
    expect(lineText(TRUFFLE)).toEqual([TRUFFLE, 'Weight: 1 kg', `1 × ${formatRupees(1199)}`]);
    expect(billOf(container)).toEqual(EXPECTED_BILL);
    expect(container.querySelector('.co-chip')?.textContent).toBe(WAITING_TO_BE_SENT);
  });

  it('an order placed offline from the checkout keeps what each cart line chose', async () => {
    await db.cart.put({
      key: '5:51',
      productID: 5,
      variationID: 51,
      variationName: 'Weight',
      variationValue: '1 kg',
      baseSize: null,
      title: TRUFFLE,
      image: '/media/p5-320.webp',
      price: 1199,
      quantity: 2,
      addedAt: 1,
    });
    signIn();
    renderAt('/checkout');
    await screen.findByText(TRUFFLE);
    const field = (label: string) => screen.getByLabelText(label, { exact: true });
    await db.areas.bulkPut([...SEED_AREAS]);
    fireEvent.change(field('Pincode'), { target: { value: '160062' } });
    fireEvent.change(field('Full Name'), { target: { value: 'Asha Verma' } });
    fireEvent.change(field('Full Shipping Address'), { target: { value: 'House 12, Sector 70' } });
    await waitFor(() => expect((field('City') as HTMLInputElement).value).toBe('Mohali'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    });
    await waitFor(() => expect(url()).toMatch(/^\/order-success\?order=/));
    await screen.findByRole('heading', { level: 1, name: t.successQueuedTitle });
    const [row] = (await db.outbox.toArray()).map(upgradeRow);
    expect(row?.lines).toEqual([
      { productID: 5, variationID: 51, variationName: 'Weight', variationValue: '1 kg', baseSize: null },
    ]);
    await waitFor(() =>
      expect(lineText(TRUFFLE)).toEqual([TRUFFLE, 'Weight: 1 kg', `2 × ${formatRupees(1199)}`]),
    );
  });
});

describe('order success: where it goes, which night, one total', { timeout: 30_000 }, () => {
  /** The "Deliver to" fact's lines. */
  function deliverTo(container: HTMLElement): string[] {
    const dt = [...container.querySelectorAll('dt')].find((d) => d.textContent === t.deliverTo);
    return [...(dt?.nextElementSibling?.querySelectorAll('.co-deliver-to > span') ?? [])].map(
      (s) => s.textContent ?? '',
    );
  }

  it("the shopper's own address, and which night the Midnight slot is", async () => {
    const row = truffleRow('k-own');
    await db.outbox.put(row);
    signIn();
    const { container } = renderAt('/order-success?order=k-own');
    await screen.findByRole('heading', { level: 1, name: t.successQueuedTitle });
    expect(deliverTo(container)).toEqual([
      'Asha Verma',
      'House 12, Sector 70',
      'Mohali, Punjab 160062',
      '9876543210',
    ]);
    const night = nightOfLabel(MIDNIGHT, row.request.DeliveryDate);
    expect(night).toMatch(/^Night of \d+ \w+, before the \d+(st|nd|rd|th) begins$/);
    expect(screen.getByText(night ?? '')).toBeTruthy();
  });

  it("a gift: the recipient's name and phone at the address, and the cake's photo to its shopper", async () => {
    const made: Blob[] = [];
    const original = URL.createObjectURL;
    URL.createObjectURL = (b: Blob) => {
      made.push(b);
      return 'blob:cake-photo';
    };
    try {
      const row = truffleRow('k-gift');
      row.request = { ...row.request, Recipient: { Name: 'Dadi Ji', Phone: '9812345678' } };
      const photo = new Blob(['photo'], { type: 'image/webp' });
      row.photos = [{ item: 0, key: 'photo-key', blob: photo, photoID: null }];
      await db.outbox.put(row);
      signIn();
      const { container } = renderAt('/order-success?order=k-gift');
      await screen.findByRole('heading', { level: 1, name: t.successQueuedTitle });
      expect(deliverTo(container)).toEqual([
        'Dadi Ji (a gift from you)',
        'House 12, Sector 70',
        'Mohali, Punjab 160062',
        '9812345678',
      ]);
      const img = await screen.findByRole('img', { name: `What you chose to print on ${TRUFFLE}` });
      expect(img.getAttribute('src')).toBe('blob:cake-photo');
      expect(made).toHaveLength(1);
    } finally {
      URL.createObjectURL = original;
    }
  });

  it('a repriced order: the bill and the line show the new figures the Confirm box names, never the old total', async () => {
    const row = truffleRow('k-repriced');
    await db.outbox.put({
      ...row,
      state: 'attention',
      problem: {
        kind: 'repriced',
        status: 409,
        message: 'Prices changed',
        data: {
          reason: 'repriced',
          lines: [
            {
              productID: 5,
              variationID: 51,
              productName: TRUFFLE,
              quantity: 1,
              old: { price: 1199, lineTotal: 1199 },
              new: { price: 1299, lineTotal: 1299 },
            },
          ],
          subtotal: 1299,
          deliveryCharge: 200,
          slotCharge: 250,
          discount: 200,
          total: { old: 1449, new: 1549 },
          coupon: { code: 'SAVE200', applied: true, message: null },
        },
      },
    });
    signIn();
    const { container } = renderAt('/order-success?order=k-repriced');
    await screen.findByRole('button', { name: t.confirmNew(formatRupees(1549)) });
    expect(billOf(container)).toEqual([
      ['Subtotal', formatRupees(1299)],
      ['Delivery Charges', formatRupees(200)],
      ['Midnight delivery (11 PM – 12 AM)', formatRupees(250)],
      ['Coupon SAVE200', `−${formatRupees(200)}`],
      ['Total', `${formatRupees(1549)} INR`],
    ]);
    expect(lineText(TRUFFLE)).toEqual([TRUFFLE, 'Weight: 1 kg', `1 × ${formatRupees(1299)}`]);
  });
});

describe('My Orders', { timeout: 30_000 }, () => {
  it("the phone's orders: lines with their option, unit price and quantity; the same state names", async () => {
    const waiting = truffleRow('k-w');
    const sent = truffleRow('k-s');
    await db.outbox.bulkPut([
      waiting,
      { ...sent, state: 'sent', placed: placed(sent), createdAt: waiting.createdAt - 1000 },
    ]);
    await db.orderHistory.put({ userId: 7, rows: [], fetchedAt: Date.now() });
    signIn();
    renderAt('/my-orders');
    const queued = await screen.findByRole('region', { name: t.queuedHeading });
    await waitFor(() => expect(within(queued).getAllByText('Weight: 1 kg')).toHaveLength(2));
    expect(within(queued).getAllByText(`1 × ${formatRupees(1199)}`)).toHaveLength(2);
    expect([...queued.querySelectorAll('.co-chip')].map((c) => c.textContent)).toEqual([
      WAITING_TO_BE_SENT,
      'Placed',
    ]);
    expect(within(queued).getByText(/Paid online/)).toBeTruthy();
  });

  it("the history's lines: option, unit price, quantity, the state's name and Paid online; an older copy still renders", async () => {
    const line = {
      orderID: 41,
      productName: `${TRUFFLE} (Weight: 1 kg)`,
      productTitle: TRUFFLE,
      variationName: 'Weight',
      variationValue: '1 kg',
      unitPrice: 649,
      productImage: '/media/p5-320.webp',
      quantity: 2,
      totalAmount: 1748,
      orderDate: new Date().toISOString(),
      status: 'out for delivery',
      deliveryDate: '2026-11-28',
      paymentMethod: 'Razorpay',
      deliverySlot: MIDNIGHT,
      slotCharge: 250,
      cakeMessage: null,
      photoID: null,
      recipient: null,
      hidePrice: false,
      hideSender: false,
      card: null,
    } satisfies OrderHistoryRow;
    // A copy kept before lines had their parts: the old name, no price of one.
    const {
      productTitle: _t,
      variationName: _n,
      variationValue: _v,
      unitPrice: _u,
      ...older
    } = {
      ...line,
      orderID: 12,
      productName: 'Red Roses (Bunch)',
      status: 'delivered',
      paymentMethod: 'Cash on Delivery',
    };
    await db.orderHistory.put({
      userId: 7,
      rows: [line, older as unknown as OrderHistoryRow],
      fetchedAt: Date.now(),
    });
    signIn();
    renderAt('/my-orders');
    const card = (await screen.findByRole('link', { name: 'Order #41' })).closest('li');
    if (!(card instanceof HTMLElement)) throw new Error('no card for order 41');
    expect(lineText(TRUFFLE)).toEqual([TRUFFLE, 'Weight: 1 kg', `2 × ${formatRupees(649)}`]);
    expect(within(card).getByText(formatRupees(1298))).toBeTruthy();
    expect(within(card).getByText('Out for delivery')).toBeTruthy();
    expect(within(card).getByText(/Paid online/)).toBeTruthy();
    expect(lineText('Red Roses (Bunch)')).toEqual(['Red Roses (Bunch)', 'Quantity 2']);
    expect(screen.queryByText(/Razorpay/)).toBeNull();
  });

  it('each order says where it goes and which night its Midnight slot is', async () => {
    const gift = {
      orderID: 43,
      productName: TRUFFLE,
      productTitle: TRUFFLE,
      variationName: null,
      variationValue: null,
      unitPrice: 649,
      productImage: '/media/p5-320.webp',
      quantity: 1,
      totalAmount: 1049,
      orderDate: new Date().toISOString(),
      status: 'placed',
      deliveryDate: '2026-11-28',
      paymentMethod: 'Razorpay',
      deliverySlot: MIDNIGHT,
      slotCharge: 250,
      cakeMessage: null,
      photoID: null,
      recipient: { name: 'Dadi Ji', phone: '9812345678' },
      hidePrice: true,
      hideSender: false,
      card: null,
      deliverTo: {
        name: 'Dadi Ji',
        phone: '9812345678',
        address: 'House 7, Phase 5, Mohali, Punjab 160062',
        city: 'Mohali',
        state: 'Punjab',
        pincode: '160062',
        gift: true,
      },
    } satisfies OrderHistoryRow;
    await db.orderHistory.put({ userId: 7, rows: [gift], fetchedAt: Date.now() });
    signIn();
    renderAt('/my-orders');
    const card = (await screen.findByRole('link', { name: 'Order #43' })).closest('li');
    if (!(card instanceof HTMLElement)) throw new Error('no card for order 43');
    // The address already ends with its town and pincode: they are said once, on their own line.
    expect([...card.querySelectorAll('.co-deliver-to > span')].map((s) => s.textContent)).toEqual([
      'Dadi Ji (a gift from you)',
      'House 7, Phase 5',
      'Mohali, Punjab 160062',
      '9812345678',
    ]);
    expect(within(card).getByText(/Night of 28 Nov, before the 29th begins/)).toBeTruthy();
  });
});

describe('the order page', { timeout: 30_000 }, () => {
  const order: ShopperOrder = {
    refunds: [],
    orderID: 41,
    status: 'paid',
    orderDate: new Date().toISOString(),
    deliveryDate: '2026-11-28',
    deliverySlot: MIDNIGHT,
    customerName: 'Asha Verma',
    customerPhone: '9876543210',
    customerAddress: 'House 12, Sector 70',
    state: 'Punjab',
    city: 'Mohali',
    pincode: '160062',
    paymentMethod: 'Razorpay',
    subtotal: BILL.subtotal,
    deliveryCharge: BILL.deliveryCharge,
    slotCharge: BILL.slotCharge,
    discount: BILL.discount,
    couponCode: 'SAVE200',
    totalAmount: BILL.total,
    lines: [
      {
        productID: 5,
        productName: TRUFFLE,
        variationName: 'Weight',
        variationValue: '1 kg',
        productImage: '/media/p5-320.webp',
        unitPrice: 1199,
        quantity: 1,
        lineTotal: 1199,
        cakeMessage: 'Happy birthday Dadi',
        photoID: null,
      },
    ],
    timeline: [
      { status: 'placed', at: new Date().toISOString() },
      { status: 'paid', at: new Date().toISOString() },
    ],
    recipient: null,
    hidePrice: false,
    hideSender: false,
    card: null,
  };

  it('says what was chosen, Paid online, and a bill that adds up', async () => {
    await db.orderDetails.put({ orderID: 41, userId: 7, order, fetchedAt: Date.now(), etag: null });
    signIn();
    const { container } = renderAt('/my-orders/41');
    await screen.findByRole('heading', { level: 1, name: /Order #41/ });
    expect(lineText(TRUFFLE)).toEqual([
      TRUFFLE,
      'Weight: 1 kg',
      `1 × ${formatRupees(1199)}`,
      'On the cake: Happy birthday Dadi',
    ]);
    expect(screen.getByText('Paid online')).toBeTruthy();
    expect(screen.queryByText('Razorpay')).toBeNull();
    expect(billOf(container)).toEqual(EXPECTED_BILL);
  });

  it('a copy kept before lines had their value says the size was not recorded', async () => {
    const [l] = order.lines;
    if (!l) throw new Error('no line');
    const { variationValue: _v, ...older } = l;
    await db.orderDetails.put({
      orderID: 41,
      userId: 7,
      order: { ...order, lines: [older as typeof l] },
      fetchedAt: Date.now(),
      etag: null,
    });
    signIn();
    renderAt('/my-orders/41');
    await screen.findByRole('heading', { level: 1, name: /Order #41/ });
    expect(lineText(TRUFFLE).slice(0, 2)).toEqual([TRUFFLE, 'Weight: size not recorded']);
  });
});
