import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { RegisterSchema, UpdateProfileSchema } from '../../domain/accounts.js';
import { ContactSchema } from '../../domain/contact.js';
import { messages } from '../../domain/messages.js';
import { OrderRequestSchema } from '../../domain/orders.js';
import { singleLineMessage } from '../../domain/single-line.js';

/**
 * Single-line fields refuse control characters, CR and LF in the shared schemas (so the browser's
 * forms and the server say the same), each with its field's message; multi-line ones keep LF.
 */
const BREAKERS = [
  'Eve\r\nBcc: victim@example.test',
  'Eve\nBcc: x',
  'Eve\rX',
  'Eve\u0000',
  'Eve\tX',
  'Eve\u2028X',
];

const order = {
  DeliveryDate: '2030-01-02',
  CustomerName: 'Asha Verma',
  CustomerEmail: 'asha@example.com',
  CustomerPhone: '9876543210',
  CustomerAddress: 'House 12\nSector 70',
  State: 'Punjab',
  City: 'Mohali',
  CustomerPincode: '160062',
  PaymentMethod: 'Cash on Delivery',
  TotalAmount: 650,
  OrderItems: [{ ProductID: 1, ProductName: 'Cake', Price: 500, Quantity: 1, ProductImage: '' }],
};
const register = {
  name: 'Asha Verma',
  email: 'asha@example.com',
  password: 'Good-Pass1',
  confirmPassword: 'Good-Pass1',
  phone: '9876543210',
};
const contact = { name: 'Asha', email: 'asha@example.com', subject: 'Cake', message: 'Hello\nthere' };

function firstMessage(schema: v.GenericSchema, input: unknown): string | null {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  return result.success ? null : (result.issues[0]?.message ?? '');
}

const CASES: [string, v.GenericSchema, Record<string, unknown>, string, string][] = [
  ['order CustomerName', OrderRequestSchema, order, 'CustomerName', singleLineMessage('Full Name')],
  ['order City', OrderRequestSchema, order, 'City', singleLineMessage('City')],
  ['order State', OrderRequestSchema, order, 'State', singleLineMessage('State')],
  ['order CustomerPhone', OrderRequestSchema, order, 'CustomerPhone', messages.phoneInvalid],
  ['order CustomerEmail', OrderRequestSchema, order, 'CustomerEmail', messages.emailInvalid],
  ['order CustomerPincode', OrderRequestSchema, order, 'CustomerPincode', messages.pincodeInvalid],
  ['register name', RegisterSchema, register, 'name', singleLineMessage('Name')],
  ['register email', RegisterSchema, register, 'email', messages.emailInvalid],
  ['register phone', RegisterSchema, register, 'phone', messages.phoneInvalid],
  ['profile name', UpdateProfileSchema, {}, 'name', singleLineMessage('Name')],
  ['contact name', ContactSchema, contact, 'name', singleLineMessage('Name')],
  ['contact subject', ContactSchema, contact, 'subject', singleLineMessage('Subject')],
];

describe('single-line fields', () => {
  for (const [what, schema, valid, field, message] of CASES) {
    it(`${what} refuses line breaks and control characters with its message`, () => {
      expect(firstMessage(schema, valid)).toBeNull();
      const base = String(valid[field] ?? 'Asha');
      for (const breaker of BREAKERS) {
        // Inside the value, where trimming cannot remove it.
        const value = `${base.slice(0, 2)}${breaker}${base.slice(2)}`;
        expect(firstMessage(schema, { ...valid, [field]: value }), JSON.stringify(value)).toBe(message);
      }
    });
  }

  it('multi-line fields keep their line breaks', () => {
    const parsedOrder = v.parse(OrderRequestSchema, order);
    expect(parsedOrder.CustomerAddress).toBe('House 12\nSector 70');
    expect(v.parse(ContactSchema, contact).message).toBe('Hello\nthere');
  });
});
