import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { requestHash } from '../../api/orders/idempotency.js';
import {
  CAKE_MESSAGE_MAX,
  CakeMessageSchema,
  cakeMessageProblem,
  cardMessageProblem,
  countCharacters,
  earliestPhotoCakeDate,
  GiftCardSchema,
  giftMessages,
  giftPaymentProblem,
  photoCakeDateProblem,
  RecipientSchema,
  SavedRecipientInputSchema,
} from '../../domain/gifts.js';
import { OrderRequestSchema } from '../../domain/orders.js';

/** The message rule of issue 26: characters as a person counts them, in any script. */
describe('countCharacters', () => {
  it('counts a Devanagari letter with its vowel sign (matra) as one', () => {
    expect(countCharacters('दा')).toBe(1);
    expect(countCharacters('दादी')).toBe(2);
    // "जन्मदिन मुबारक दादी": 19 code points ... fewer clusters, and the same on every side.
    const hindi = 'जन्मदिन मुबारक दादी';
    expect(hindi.length).toBe(19);
    expect(countCharacters(hindi)).toBeLessThan(hindi.length);
    expect(countCharacters('मुबारक')).toBe(4);
  });
  it('counts a Gurmukhi letter with its vowel sign as one', () => {
    expect(countCharacters('ਦਿ')).toBe(1);
    expect(countCharacters('ਜਨਮਦਿਨ ਮੁਬਾਰਕ')).toBe(10);
  });
  it('counts an emoji with zero-width joiners, a skin tone or a flag as one', () => {
    expect(countCharacters('👨‍👩‍👧')).toBe(1);
    expect(countCharacters('👍🏽')).toBe(1);
    expect(countCharacters('🇮🇳')).toBe(1);
    expect(countCharacters('Happy 🎂🇮🇳')).toBe(8);
  });
  it('counts plain Latin letters one by one', () => {
    expect(countCharacters('')).toBe(0);
    expect(countCharacters('Happy birthday')).toBe(14);
  });
});

describe('cakeMessageProblem', () => {
  it('takes 40 characters and refuses 41', () => {
    expect(cakeMessageProblem('a'.repeat(CAKE_MESSAGE_MAX))).toBeNull();
    expect(cakeMessageProblem('a'.repeat(CAKE_MESSAGE_MAX + 1))).toBe(giftMessages.cakeMessageTooLong);
    expect(giftMessages.cakeMessageTooLong).toBe('The message on the cake can be at most 40 characters.');
  });
  it('counts 40 Devanagari letters with matras as 40, though they are 80 code units', () => {
    const forty = 'दा'.repeat(40);
    expect(forty.length).toBe(80);
    expect(cakeMessageProblem(forty)).toBeNull();
    expect(cakeMessageProblem(`${forty}दा`)).toBe(giftMessages.cakeMessageTooLong);
  });
  it('counts 40 family emoji as 40', () => {
    expect(cakeMessageProblem('👨‍👩‍👧'.repeat(40))).toBeNull();
    expect(cakeMessageProblem('👨‍👩‍👧'.repeat(41))).toBe(giftMessages.cakeMessageTooLong);
    expect(cakeMessageProblem('🇮🇳'.repeat(40))).toBeNull();
  });
  it('takes any script: Hindi, Punjabi, Tamil, Urdu', () => {
    for (const m of ['जन्मदिन मुबारक दादी', 'ਜਨਮਦਿਨ ਮੁਬਾਰਕ', 'பிறந்தநாள் வாழ்த்துக்கள்', 'سالگرہ مبارک']) {
      expect(cakeMessageProblem(m)).toBeNull();
    }
  });
  it('refuses control characters and line breaks, but keeps the joiners', () => {
    for (const bad of [
      'Happy\nbirthday',
      'Happy\r',
      'a\u0000b',
      'tab\there',
      'a\u007fb',
      'a\u0085b',
      'a\u2028b',
    ]) {
      expect(cakeMessageProblem(bad)).toBe(giftMessages.cakeMessageControl);
    }
    expect(cakeMessageProblem('क्‍ष')).toBeNull(); // ZWJ
    expect(cakeMessageProblem('क्‌ष')).toBeNull(); // ZWNJ
    expect(cakeMessageProblem('\ud83c')).toBe(giftMessages.cakeMessageControl); // half of a pair
  });
  it('refuses a "character" made of hundreds of combining marks', () => {
    expect(cakeMessageProblem(`a${'\u0301'.repeat(500)}`)).toBe(giftMessages.cakeMessageTooLong);
  });
});

describe('CakeMessageSchema', () => {
  it("trims, makes '' none, and reports the rule's message", () => {
    expect(v.parse(CakeMessageSchema, '  जन्मदिन मुबारक दादी ')).toBe('जन्मदिन मुबारक दादी');
    expect(v.parse(CakeMessageSchema, '   ')).toBeNull();
    expect(v.parse(CakeMessageSchema, null)).toBeNull();
    const long = v.safeParse(CakeMessageSchema, 'x'.repeat(41));
    expect(long.success).toBe(false);
    expect(long.issues?.[0]?.message).toBe(giftMessages.cakeMessageTooLong);
    const ctl = v.safeParse(CakeMessageSchema, 'a\nb');
    expect(ctl.issues?.[0]?.message).toBe(giftMessages.cakeMessageControl);
  });
});

describe('card', () => {
  it('takes an occasion of the list and 200 characters with line breaks', () => {
    expect(
      v.parse(GiftCardSchema, { Occasion: 'Birthday', Message: 'Dear Dadi,\r\nHappy birthday!' }),
    ).toEqual({
      Occasion: 'Birthday',
      Message: 'Dear Dadi,\nHappy birthday!',
    });
    expect(v.parse(GiftCardSchema, { Occasion: 'Just because' }).Message).toBe('');
    expect(v.safeParse(GiftCardSchema, { Occasion: 'Diwali', Message: '' }).success).toBe(false);
    expect(cardMessageProblem('x'.repeat(200))).toBeNull();
    expect(cardMessageProblem('x'.repeat(201))).toBe(giftMessages.cardMessageTooLong);
    expect(cardMessageProblem('a\u0007b')).toBe(giftMessages.cardMessageControl);
  });
});

describe('recipient', () => {
  it('needs a name on one line and a 10-digit Indian mobile number', () => {
    expect(v.parse(RecipientSchema, { Name: ' Dadi ', Phone: '9876543210' })).toEqual({
      Name: 'Dadi',
      Phone: '9876543210',
    });
    for (const Phone of ['987654321', '98765432100', '1234567890', '98765-43210', '']) {
      const r = v.safeParse(RecipientSchema, { Name: 'Dadi', Phone });
      expect(r.success).toBe(false);
      expect(r.issues?.[0]?.message).toBe(giftMessages.recipientPhone);
    }
    expect(v.safeParse(RecipientSchema, { Name: 'Da\ndi', Phone: '9876543210' }).success).toBe(false);
    expect(v.safeParse(RecipientSchema, { Name: ' ', Phone: '9876543210' }).success).toBe(false);
  });
  it('a saved recipient has an address, city, state and a 6-digit pincode', () => {
    const ok = {
      name: 'Dadi',
      phone: '9876543210',
      address: '12 Rose Lane',
      city: 'Mohali',
      state: 'Punjab',
      pincode: 160055,
    };
    expect(v.parse(SavedRecipientInputSchema, ok).pincode).toBe('160055');
    expect(v.safeParse(SavedRecipientInputSchema, { ...ok, pincode: '16005' }).success).toBe(false);
  });
});

describe('earliestPhotoCakeDate', () => {
  it('is tomorrow in India, whatever the hour, across India midnight', () => {
    // 18:29 UTC is 23:59 in India: still the 25th there.
    expect(earliestPhotoCakeDate(new Date('2026-11-25T18:29:00Z'))).toBe('2026-11-26');
    // 18:30 UTC is midnight in India: the 26th has begun, so the 27th.
    expect(earliestPhotoCakeDate(new Date('2026-11-25T18:30:00Z'))).toBe('2026-11-27');
    // Early morning in India is the previous day in UTC.
    expect(earliestPhotoCakeDate(new Date('2026-11-25T20:00:00Z'))).toBe('2026-11-27');
    expect(earliestPhotoCakeDate(new Date('2026-12-31T12:00:00Z'))).toBe('2027-01-01');
  });
  it('refuses today and takes tomorrow', () => {
    const now = new Date('2026-11-25T06:00:00Z');
    expect(photoCakeDateProblem('2026-11-25', now)).toEqual({ earliest: '2026-11-26' });
    expect(photoCakeDateProblem('2026-11-26', now)).toBeNull();
    expect(photoCakeDateProblem('not a date', now)).toEqual({ earliest: '2026-11-26' });
  });
});

describe('giftPaymentProblem', () => {
  it('refuses Cash on Delivery only for a gift to someone else with no price in the box', () => {
    const cod = 'Cash on Delivery' as const;
    expect(giftPaymentProblem({ recipient: true, hidePrice: true, paymentMethod: cod })).toBe(
      giftMessages.giftCod,
    );
    expect(giftPaymentProblem({ recipient: true, hidePrice: true, paymentMethod: 'Razorpay' })).toBeNull();
    expect(giftPaymentProblem({ recipient: true, hidePrice: false, paymentMethod: cod })).toBeNull();
    expect(giftPaymentProblem({ recipient: false, hidePrice: true, paymentMethod: cod })).toBeNull();
  });
});

describe('the order request', () => {
  const plain = {
    DeliveryDate: '2026-11-30',
    CustomerName: 'Asha',
    CustomerEmail: 'asha@example.com',
    CustomerPhone: '9876543210',
    CustomerAddress: '1 Mall Road',
    State: 'Punjab',
    City: 'Mohali',
    CustomerPincode: '160055',
    TotalAmount: 500,
    OrderItems: [{ ProductID: 1, Price: 500, Quantity: 1 }],
  };
  it("leaves a request without gift fields as it was (its idempotency hash doesn't move)", () => {
    const out = v.parse(OrderRequestSchema, plain);
    for (const k of ['Recipient', 'HidePrice', 'HideSender', 'Card']) expect(k in out).toBe(false);
    expect('CakeMessage' in (out.OrderItems[0] ?? {})).toBe(false);
    expect('PhotoID' in (out.OrderItems[0] ?? {})).toBe(false);
    // The hash this request had before issue 26 (computed with the schema of commit c9f1820): a key
    // an old device queued before the upgrade replays as the same request.
    expect(requestHash(v.parse(OrderRequestSchema, { ...plain, CouponCode: 'X' }))).toBe(
      '8856bf9a63b34102476365ac6a769c191c0a577862324426ee37a700e917d5d8',
    );
  });
  it('takes every gift field', () => {
    const out = v.parse(OrderRequestSchema, {
      ...plain,
      Recipient: { Name: 'Dadi', Phone: '9876543210', Save: true },
      HidePrice: true,
      HideSender: false,
      Card: { Occasion: 'Birthday', Message: 'Love you' },
      OrderItems: [
        {
          ProductID: 1,
          Price: 500,
          Quantity: 1,
          CakeMessage: 'जन्मदिन मुबारक दादी',
          PhotoID: 'A1B2C3D4-0000-4000-8000-000000000000',
        },
      ],
    });
    expect(out.Recipient).toEqual({ Name: 'Dadi', Phone: '9876543210', Save: true });
    expect(out.OrderItems[0]?.CakeMessage).toBe('जन्मदिन मुबारक दादी');
    expect(out.OrderItems[0]?.PhotoID).toBe('a1b2c3d4-0000-4000-8000-000000000000');
  });
});
