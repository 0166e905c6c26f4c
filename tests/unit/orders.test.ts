import { describe, expect, it } from 'vitest';
import { couponDiscount } from '../../domain/coupon-terms.js';
import { messages } from '../../domain/messages.js';
import {
  comparePricing,
  isIdempotencyKey,
  OrderRequestSchema,
  orderTotals,
  type PricedLine,
} from '../../domain/orders.js';
import { normalizePaymentMethod } from '../../domain/payment-methods.js';
import { parseWith } from '../../domain/validation.js';

const good = {
  DeliveryDate: '2026-11-24',
  CustomerName: ' Asha ',
  CustomerEmail: 'Asha@Example.com',
  CustomerPhone: '9876543210',
  CustomerAddress: 'House 1, Sector 70',
  State: 'Punjab',
  City: 'Mohali',
  CustomerPincode: 160062,
  PaymentMethod: 'Cash on Delivery',
  TotalAmount: 1150,
  OrderItems: [{ ProductName: 'Chocolate Truffle', Price: 500, Quantity: 2, ProductImage: '/a.webp' }],
};

function message(input: unknown): string | null {
  const r = parseWith(OrderRequestSchema, input);
  return r.ok ? null : r.message;
}

describe('order request', () => {
  it('accepts the spec client shape and normalizes it', () => {
    const r = parseWith(OrderRequestSchema, good);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.CustomerName).toBe('Asha');
    expect(r.value.CustomerEmail).toBe('asha@example.com');
    expect(r.value.CustomerPincode).toBe('160062');
    expect(r.value.OrderItems[0]?.ProductID).toBeNull();
    expect(r.value.CouponCode).toBeNull();
  });
  it("answers each bad field with the spec's message", () => {
    expect(message({ ...good, DeliveryDate: 'tomorrow' })).toBe(messages.deliveryDateInvalid);
    expect(message({ ...good, CustomerName: '  ' })).toBe(messages.fullNameRequired);
    expect(message({ ...good, CustomerAddress: '' })).toBe(messages.addressRequired);
    expect(message({ ...good, State: '' })).toBe(messages.stateRequired);
    expect(message({ ...good, City: undefined })).toBe(messages.cityRequired);
    expect(message({ ...good, CustomerPincode: '' })).toBe(messages.pincodeRequired);
    expect(message({ ...good, CustomerPincode: '12345' })).toBe(messages.pincodeInvalid);
    expect(message({ ...good, CustomerPhone: '12345' })).toBe(messages.phoneInvalid);
    expect(message({ ...good, PaymentMethod: 'Bitcoin' })).toBe(messages.paymentMethodRequired);
    expect(message({ ...good, TotalAmount: 10.5 })).toBe(messages.totalInvalid);
    expect(message({ ...good, TotalAmount: '1150' })).toBe(messages.totalInvalid);
    expect(message({ ...good, OrderItems: [] })).toBe(messages.orderItemsRequired);
  });
  it('refuses quantities that are not positive whole numbers up to the cart maximum', () => {
    for (const q of [0, -1, 1.5, 100, '2', null]) {
      const items = [{ ...good.OrderItems[0], Quantity: q }];
      expect(message({ ...good, OrderItems: items })).toBe(messages.quantityInvalid(99));
    }
  });
  it('needs a product id or a name per item', () => {
    expect(message({ ...good, OrderItems: [{ Price: 1, Quantity: 1 }] })).toBe('Each item needs a product.');
    expect(message({ ...good, OrderItems: [{ ProductID: 3, Price: 1, Quantity: 1 }] })).toBeNull();
    expect(message({ ...good, OrderItems: [{ ProductID: 0, Price: 1, Quantity: 1 }] })).not.toBeNull();
  });
  it('maps the ways clients write the payment method', () => {
    expect(normalizePaymentMethod('COD')).toBe('Cash on Delivery');
    expect(normalizePaymentMethod('razorpay')).toBe('Razorpay');
    expect(normalizePaymentMethod('UPI, cards, net banking')).toBe('Razorpay');
    expect(normalizePaymentMethod('cheque')).toBeNull();
  });
});

describe('order totals', () => {
  const lines: PricedLine[] = [
    {
      productID: 1,
      variationID: null,
      productName: 'A',
      variationName: null,
      unitPrice: 500,
      quantity: 2,
      lineTotal: 1000,
    },
    {
      productID: 2,
      variationID: 7,
      productName: 'B',
      variationName: '1 kg',
      unitPrice: 899,
      quantity: 1,
      lineTotal: 899,
    },
  ];
  it('adds lines and delivery and takes off the coupon', () => {
    expect(orderTotals(lines, 150, 200)).toEqual({
      subtotal: 1899,
      deliveryCharge: 150,
      slotCharge: 0,
      discount: 200,
      total: 1849,
    });
  });
  it("adds a delivery slot's surcharge, which the coupon never takes off", () => {
    expect(orderTotals(lines, 150, 5000, 250)).toEqual({
      subtotal: 1899,
      deliveryCharge: 150,
      slotCharge: 250,
      discount: 1899,
      total: 400,
    });
  });
  it('never discounts more than the goods', () => {
    expect(couponDiscount(200, 150)).toBe(150);
    expect(orderTotals([{ unitPrice: 100, quantity: 1 }], 300, 200)).toEqual({
      subtotal: 100,
      deliveryCharge: 300,
      slotCharge: 0,
      discount: 100,
      total: 300,
    });
  });
  it('finds nothing to confirm when the shopper saw the right figures', () => {
    const totals = orderTotals(lines, 150, 200);
    const claimed = {
      items: [
        { Price: 500, Quantity: 2 },
        { Price: 899, Quantity: 1 },
      ],
      total: 1849,
    };
    expect(comparePricing(claimed, lines, totals)).toBeNull();
  });
  it('shows old and new figures per line when a price changed', () => {
    const totals = orderTotals(lines, 150, 200);
    const claimed = {
      items: [
        { Price: 450, Quantity: 2 },
        { Price: 899, Quantity: 1 },
      ],
      total: 1749,
    };
    const conflict = comparePricing(claimed, lines, totals);
    expect(conflict?.lines[0]).toMatchObject({
      old: { price: 450, lineTotal: 900 },
      new: { price: 500, lineTotal: 1000 },
    });
    expect(conflict?.total).toEqual({ old: 1749, new: 1849 });
    expect(conflict?.deliveryCharge).toBe(150);
    expect(conflict?.discount).toBe(200);
  });
  it('refuses a tampered line price even when the total is right', () => {
    const totals = orderTotals(lines, 150, 200);
    const claimed = {
      items: [
        { Price: 1, Quantity: 2 },
        { Price: 899, Quantity: 1 },
      ],
      total: 1849,
    };
    expect(comparePricing(claimed, lines, totals)).not.toBeNull();
  });
  it('refuses a tampered total', () => {
    const totals = orderTotals(lines, 150, 200);
    const claimed = {
      items: [
        { Price: 500, Quantity: 2 },
        { Price: 899, Quantity: 1 },
      ],
      total: 1,
    };
    expect(comparePricing(claimed, lines, totals)?.total).toEqual({ old: 1, new: 1849 });
  });
});

describe('idempotency keys', () => {
  it('are UUIDs', () => {
    expect(isIdempotencyKey('3f2b8c1e-9a4d-4c7b-8e2f-1a2b3c4d5e6f')).toBe(true);
    expect(isIdempotencyKey('not-a-key')).toBe(false);
    expect(isIdempotencyKey('3f2b8c1e9a4d4c7b8e2f1a2b3c4d5e6f')).toBe(false);
  });
});
