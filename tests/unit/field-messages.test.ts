import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { accountMessages } from '../../domain/account-messages.js';
import { ProfileFormSchema, RegisterSchema, UpdateProfileSchema } from '../../domain/accounts.js';
import { checkoutErrors } from '../../domain/checkout.js';
import { earliestDeliveryDate } from '../../domain/delivery.js';
import { RecipientSchema } from '../../domain/gifts.js';
import { messages } from '../../domain/messages.js';
import type { OrderRequestInput } from '../../domain/orders.js';
import { tooLongMessage } from '../../domain/single-line.js';

/**
 * What a field says: a text that is there but too long says so with the limit (never that the
 * field is required), and the words the shop uses ("an OTP").
 */
const LONG_NAME = 'Asha Verma '.repeat(12).slice(0, 124);

function firstMessage(schema: v.GenericSchema, input: unknown, key: string): string | undefined {
  const parsed = v.safeParse(schema, input);
  return parsed.issues?.find((i) => i.path?.[0]?.key === key)?.message;
}

describe('a text longer than its field allows', () => {
  const now = new Date();
  const order: OrderRequestInput = {
    DeliveryDate: earliestDeliveryDate(now),
    CustomerName: 'Asha Verma',
    CustomerEmail: 'asha@example.com',
    CustomerPhone: '9876543210',
    CustomerAddress: 'House 12, Sector 70',
    State: 'Punjab',
    City: 'Mohali',
    CustomerPincode: '160062',
    PaymentMethod: 'Cash on Delivery',
    TotalAmount: 650,
    OrderItems: [{ ProductID: 1, ProductName: 'Cake', Price: 500, Quantity: 1, ProductImage: '' }],
  };

  it('the checkout says the name, state, city and address are too long, with the limit', () => {
    expect(checkoutErrors(order, now)).toEqual({});
    expect(LONG_NAME).toHaveLength(124);
    expect(checkoutErrors({ ...order, CustomerName: LONG_NAME }, now)).toEqual({
      CustomerName: 'Full Name is too long (at most 100 characters).',
    });
    expect(checkoutErrors({ ...order, State: 'P'.repeat(61), City: 'M'.repeat(61) }, now)).toEqual({
      State: tooLongMessage('State', 60),
      City: tooLongMessage('City', 60),
    });
    expect(checkoutErrors({ ...order, CustomerAddress: 'x'.repeat(501) }, now)).toEqual({
      CustomerAddress: tooLongMessage('Shipping Address', 500),
    });
    // Empty is still the spec's own message.
    expect(checkoutErrors({ ...order, CustomerName: '  ' }, now)).toEqual({
      CustomerName: messages.fullNameRequired,
    });
  });

  it('register, My Profile and a gift recipient say the name is too long', () => {
    const register = {
      name: LONG_NAME,
      email: 'asha@example.com',
      password: 'Good-Pass1',
      confirmPassword: 'Good-Pass1',
      phone: '9876543210',
    };
    expect(firstMessage(RegisterSchema, register, 'name')).toBe('Name is too long (at most 100 characters).');
    const profile = { ...register, address: '', password: '', currentPassword: '', confirmPassword: '' };
    expect(firstMessage(ProfileFormSchema, profile, 'name')).toBe(messages.nameTooLong);
    expect(firstMessage(UpdateProfileSchema, { name: LONG_NAME }, 'name')).toBe(messages.nameTooLong);
    expect(firstMessage(UpdateProfileSchema, { address: 'x'.repeat(501) }, 'address')).toBe(
      'Address is too long (at most 500 characters).',
    );
    expect(firstMessage(RecipientSchema, { Name: LONG_NAME, Phone: '9876543210' }, 'Name')).toBe(
      "The recipient's name is too long (at most 100 characters).",
    );
  });
});

describe('words', () => {
  it('"Sent you an OTP", and no text of the shop says "a OTP"', () => {
    expect(messages.otpSent).toBe('Sent you an OTP in your email!');
    const roots = ['domain', 'web', 'api', 'sw'].map((d) => join(import.meta.dirname, '../..', d));
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.(tsx?|html)$/.test(entry.name) && /\ba OTP\b/i.test(readFileSync(path, 'utf8')))
          offenders.push(path);
      }
    };
    for (const root of roots) walk(root);
    expect(offenders).toEqual([]);
  });

  it('Register names the fields still empty, then those still wrong', () => {
    expect(accountMessages.registerNeeds(['Name'], [])).toBe('Still to fill in: Name.');
    expect(accountMessages.registerNeeds(['Name', 'Email', 'Phone'], ['Password'])).toBe(
      'Still to fill in: Name, Email and Phone. Still to correct: Password.',
    );
    expect(accountMessages.registerNeeds([], ['Confirm password', 'Phone'])).toBe(
      'Still to correct: Confirm password and Phone.',
    );
  });
});
