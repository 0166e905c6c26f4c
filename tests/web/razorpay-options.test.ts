/**
 * What Razorpay Checkout is opened with (web/checkout/razorpay.ts): the spec's options and UPI
 * without its collect flow, which NPCI no longer allows from merchants on Android and desktop.
 * Razorpay's script is replaced by a constructor that keeps its options, as the real one is not
 * reachable here; the local stand-in lists what the same options leave.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKOUT_DISPLAY, onlineMethodsShown } from '../../domain/payment-methods.js';
import type { ProviderOrder } from '../../domain/payments.contract.js';
import { checkoutOptions, checkoutTimeout, payWithRazorpay } from '../../web/checkout/razorpay.js';

const order = {
  provider: 'razorpay',
  keyId: 'rzp_test_key',
  razorpayOrderId: 'order_Test123',
  amount: 79_900,
  currency: 'INR',
  totalAmount: 799,
} as unknown as ProviderOrder;
const prefill = { name: 'Asha Verma', email: 'asha@example.com', contact: '9876543210' };

afterEach(() => {
  delete (window as { Razorpay?: unknown }).Razorpay;
});

describe('Razorpay Checkout options', () => {
  it('opens Checkout with the collect flow of UPI hidden, and the spec options', async () => {
    const opened: Record<string, unknown>[] = [];
    (window as { Razorpay?: unknown }).Razorpay = class {
      private readonly options: Record<string, unknown>;
      constructor(options: Record<string, unknown>) {
        this.options = options;
      }
      on() {}
      open() {
        opened.push(this.options);
        (this.options.modal as { ondismiss(): void }).ondismiss();
      }
    };
    expect(await payWithRazorpay(order, prefill)).toEqual({ kind: 'dismissed' });
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      key: 'rzp_test_key',
      order_id: 'order_Test123',
      amount: 79_900,
      currency: 'INR',
      description: 'Order Payment',
      prefill,
      config: { display: { hide: [{ method: 'upi', flows: ['collect'] }] } },
    });
  });

  it("closes Checkout a minute before the provider order's price window ends", () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    expect(checkoutTimeout('2026-11-28T11:00:00Z', now)).toBe(59 * 60);
    expect(checkoutTimeout('2026-11-28T10:00:30Z', now)).toBe(60);
    const payBy = new Date(Date.now() + 30 * 60_000).toISOString();
    const options = checkoutOptions({ ...order, payBy }, prefill) as { timeout?: number };
    expect(options.timeout).toBeGreaterThan(28 * 60);
    expect(options.timeout).toBeLessThanOrEqual(29 * 60);
    expect('timeout' in checkoutOptions(order, prefill)).toBe(false);
  });

  it('lets the stand-in show what the same options leave: UPI by app or QR', () => {
    expect(checkoutOptions(order, prefill).config.display).toBe(CHECKOUT_DISPLAY);
    expect(onlineMethodsShown(CHECKOUT_DISPLAY)).toEqual(['UPI (app or QR)', 'Cards', 'Net banking']);
    expect(onlineMethodsShown({})).toEqual(['UPI (app, QR or UPI ID)', 'Cards', 'Net banking']);
    expect(onlineMethodsShown({ hide: [{ method: 'upi' }, { method: 'card' }] })).toEqual(['Net banking']);
  });
});
