import { describe, expect, it } from 'vitest';
import { kitchenLine, lineOption, orderLineLabel, SIZE_NOT_RECORDED } from '../../domain/order-lines.js';

describe('order line options', () => {
  const line = (variationName: string | null, variationValue: string | null | undefined) => ({
    productName: 'Chocolate Truffle Delight',
    quantity: 1,
    variationName,
    variationValue,
  });

  it('names the value chosen, with its option name when it has one', () => {
    expect(orderLineLabel(line('Weight', '1 kg'))).toBe('Chocolate Truffle Delight (Weight: 1 kg)');
    expect(orderLineLabel(line(null, '0.5 kg'))).toBe('Chocolate Truffle Delight (0.5 kg)');
    expect(orderLineLabel(line(null, ''))).toBe('Chocolate Truffle Delight');
    expect(kitchenLine(line('Weight', '1 kg'))).toBe('1 x Chocolate Truffle Delight, 1 kg');
    expect(kitchenLine({ ...line(null, ''), quantity: 3 })).toBe('3 x Chocolate Truffle Delight');
  });

  it('says a value that already names its unit once: "24 stems", never "Stems: 24 stems"', () => {
    expect(lineOption(line('Stems', '24 stems'))).toBe('24 stems');
    expect(lineOption(line('Stems', '1 stem'))).toBe('1 stem');
    expect(lineOption(line('Box', '6 boxes'))).toBe('6 boxes');
    expect(orderLineLabel(line('Stems', '24 stems'))).toBe('Chocolate Truffle Delight (24 stems)');
    // A value that does not name its option keeps the name: "Size: Small", "Weight: 1 kg".
    expect(lineOption(line('Size', 'Small'))).toBe('Size: Small');
    expect(lineOption(line('Weight', 'weightless'))).toBe('Weight: weightless');
  });

  it('says the size was not recorded rather than guess', () => {
    expect(lineOption(line('Weight', null))).toBe(`Weight: ${SIZE_NOT_RECORDED}`);
    expect(lineOption(line(null, undefined))).toBe(SIZE_NOT_RECORDED);
    expect(kitchenLine(line('Weight', null))).toBe(`1 x Chocolate Truffle Delight, ${SIZE_NOT_RECORDED}`);
  });
});

describe('order words', () => {
  it('says "Paid online" where the API says Razorpay, and keeps the value', async () => {
    const { paymentMethodLabel, PAYMENT_METHODS } = await import('../../domain/payment-methods.js');
    expect(PAYMENT_METHODS.online).toBe('Razorpay');
    expect(paymentMethodLabel('Razorpay')).toBe('Paid online');
    expect(paymentMethodLabel('Cash on Delivery')).toBe('Cash on Delivery');
  });
});
