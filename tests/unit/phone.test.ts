import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ProfileFormSchema, RegisterSchema, UpdateProfileSchema } from '../../domain/accounts.js';
import { giftMessages, RecipientSchema, SavedRecipientInputSchema } from '../../domain/gifts.js';
import { messages } from '../../domain/messages.js';
import { OrderRequestSchema } from '../../domain/orders.js';
import { mobileDigits } from '../../domain/phone.js';

/**
 * Every phone field takes a mobile number as people type it and keeps its 10 digits (DESIGN.md,
 * departure 18): the account's (register, My Profile) and a gift recipient's (the order's and a
 * saved one), through the one rule of `domain/phone.ts`.
 */
const TYPED = [
  '9876501234',
  '98765 01234',
  '+91 98765 01234',
  '+919876501234',
  '09876501234',
  ' 98765 01234 ',
];
const NOT_A_MOBILE = [
  '',
  '12345',
  '98765 0123',
  '98765012345',
  '1234567890',
  '98765-01234',
  '+1 98765 01234',
  '+91 12345 67890',
  '0 12345 67890',
  '+91',
  '9876501234x',
];

const registration = (phone: string) => ({
  name: 'Asha',
  email: 'asha@example.com',
  password: 'Good-Pass1',
  confirmPassword: 'Good-Pass1',
  phone,
});
const profileForm = (phone: string) => ({
  name: 'Asha',
  phone,
  address: '',
  password: '',
  confirmPassword: '',
  currentPassword: '',
});
const savedRecipient = (phone: string) => ({
  name: 'Dadi',
  phone,
  address: '7 Mall Road',
  city: 'Ludhiana',
  state: 'Punjab',
  pincode: '141001',
});

/** Each schema with the path of its phone field and the message it gives a number that is not a mobile. */
const FIELDS = [
  {
    what: 'register',
    schema: RegisterSchema,
    input: registration,
    key: 'phone',
    message: messages.phoneInvalid,
  },
  {
    what: 'My Profile form',
    schema: ProfileFormSchema,
    input: profileForm,
    key: 'phone',
    message: messages.phoneInvalid,
  },
  {
    what: 'PUT /UpdateUserProfile',
    schema: UpdateProfileSchema,
    input: (phone: string) => ({ phone }),
    key: 'phone',
    message: messages.phoneInvalid,
  },
  {
    what: "an order's recipient",
    schema: RecipientSchema,
    input: (Phone: string) => ({ Name: 'Dadi', Phone }),
    key: 'Phone',
    message: giftMessages.recipientPhone,
  },
  {
    what: 'a saved recipient',
    schema: SavedRecipientInputSchema,
    input: savedRecipient,
    key: 'phone',
    message: giftMessages.recipientPhone,
  },
] as const;

describe('mobileDigits', () => {
  it('drops spaces, +91 and the trunk 0 of a mobile number', () => {
    for (const typed of TYPED) expect(mobileDigits(typed)).toBe('9876501234');
  });
  it('leaves anything else as typed, without its spaces, for the rule to refuse', () => {
    expect(mobileDigits('+1 98765 01234')).toBe('+19876501234');
    expect(mobileDigits('098765 0123')).toBe('0987650123');
    expect(mobileDigits('98765-01234')).toBe('98765-01234');
  });
});

describe.each(FIELDS)('the phone of $what', ({ schema, input, key, message }) => {
  it('takes "98765 01234", "+91 98765 01234" and "09876501234" and keeps 10 digits', () => {
    for (const typed of TYPED) {
      const parsed = v.safeParse(schema, input(typed));
      expect(parsed.success, typed).toBe(true);
      expect((parsed.output as Record<string, unknown>)[key]).toBe('9876501234');
    }
  });
  it("refuses anything that is not a 10-digit Indian mobile with the field's message", () => {
    for (const typed of NOT_A_MOBILE) {
      const parsed = v.safeParse(schema, input(typed));
      expect(parsed.success, typed).toBe(false);
      const issue = parsed.issues?.find((i) => i.path?.[0]?.key === key);
      expect(issue?.message, typed).toBe(message);
    }
  });
});

it('the API still takes an account phone sent as a JSON number', () => {
  expect(v.parse(UpdateProfileSchema, { phone: 9876501234 }).phone).toBe('9876501234');
});

describe("an order's phone", () => {
  it('takes the forms people type and keeps the 10 digits', () => {
    const phone = (typed: string) =>
      v.safeParse(OrderRequestSchema.entries.CustomerPhone, typed).output as string | undefined;
    expect(['98765 01234', '+91 98765 01234', '09876501234', '9876501234'].map(phone)).toEqual(
      Array(4).fill('9876501234'),
    );
    expect(v.safeParse(OrderRequestSchema.entries.CustomerPhone, '98765-01234').success).toBe(false);
  });
});
