/**
 * Gifts: a recipient, a surprise (no price in the box, no sender on the card), a
 * message on the cake, a card, and photo cakes. The rules here are the ones the product page,
 * the cart, the checkout, the device's outbox and the server all apply, so "41/40" and a refused
 * order mean the same thing everywhere.
 */
import * as v from 'valibot';
import { isValidPincode } from './delivery.js';
import { addDays, indiaClock, isCalendarDate } from './india-time.js';
import type { Occasion } from './occasions.js';
import { PAYMENT_METHODS, type PaymentMethod } from './payment-methods.js';
import { MobileSchema } from './phone.js';
import { singleLine, tooLongMessage } from './single-line.js';

const int = v.pipe(v.number(), v.integer());

export const CAKE_MESSAGE_MAX = 40;
export const CARD_MESSAGE_MAX = 200;
/** A grapheme may hold any number of combining marks; this caps the code units a message can take. */
const UNITS_PER_CHARACTER = 10;

/** The card's occasions: the product occasions a card suits (domain/occasions.ts), and "Just because". */
export const CARD_OCCASIONS = [
  'Birthday',
  'Anniversary',
  'Congratulations',
  'Sorry',
  'Get well soon',
  'Just because',
] as const satisfies readonly (Occasion | 'Just because')[];
export type CardOccasion = (typeof CARD_OCCASIONS)[number];

/** The card's signature when the buyer chose "Don't say who it's from". */
export const WITH_LOVE = 'With love';

/** A photo cake's notice in days unless the shop's settings say otherwise (`photoCakeNoticeDays`). */
export const PHOTO_CAKE_NOTICE_DAYS = 1;

export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];
/** Phone cameras make 3-8 MB JPEGs; 10 MB takes them as they come. */
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** The preview's longest side: enough for the cake's shape on a phone and the admin's page. */
export const PHOTO_PREVIEW_MAX = 800;
/** The full size kept for the cake printer; an edible print is at most about A4 at 300 dpi. */
export const PHOTO_FULL_MAX = 4000;
/**
 * The full size's byte budget: a phone photo fits at full quality, while noise (or a picture made
 * to compress badly) is made smaller rather than kept at any size.
 */
export const PHOTO_FULL_MAX_BYTES = 2 * 1024 * 1024;
/**
 * What one account's photos may take in all (full sizes and previews, used by an order or not):
 * over 20 photos at the full size's budget, more of a phone's usual ones.
 */
export const PHOTO_QUOTA_BYTES = 50 * 1024 * 1024;
/** Saved recipients an account keeps: a family and friends, not a mailing list. */
export const RECIPIENTS_MAX = 50;

export const giftMessages = {
  cakeMessageTooLong: `The message on the cake can be at most ${CAKE_MESSAGE_MAX} characters.`,
  cakeMessageControl:
    'The message on the cake is one line of text: line breaks and control characters are not allowed.',
  cardMessageTooLong: `The card's message can be at most ${CARD_MESSAGE_MAX} characters.`,
  cardMessageControl: "The card's message contains characters that are not allowed.",
  cardOccasion: `The card's occasion must be one of: ${CARD_OCCASIONS.join(', ')}.`,
  recipientName: "Please enter the recipient's name.",
  recipientPhone: "Please enter the recipient's 10-digit mobile number.",
  giftCod:
    'A gift with no price in the box is paid online: Cash on Delivery would ask the recipient for money.',
  noMessageHere: (product: string) => `${product} does not take a message on the cake.`,
  notPhotoCake: (product: string) => `${product} is not a photo cake: it cannot carry a photo.`,
  photoMissing: (product: string) => `${product} is a photo cake: please add a photo.`,
  photoTooSoon: (product: string, earliest: string) =>
    `${product} is a photo cake and needs a day's notice: the earliest delivery date is ${earliest}.`,
  photoUnknown: 'The photo for the cake was not found. Please add it again.',
  photoType: 'The photo must be a JPEG, PNG or WebP image.',
  photoTooLarge: `The photo can be at most ${PHOTO_MAX_BYTES / 1024 / 1024} MB.`,
  photoUnreadable: 'The photo could not be read as an image.',
  photoNotFound: 'No such photo.',
  photoTooMany: 'Too many photos were added in the last hour. Please try again later.',
  photoField: 'Send the photo as the multipart file field "photo".',
  recipientNotFound: 'No such saved recipient.',
  photoQuotaFull: `Your photos have reached the ${PHOTO_QUOTA_BYTES / 1024 / 1024} MB an account can keep. A photo no order uses is removed 30 days after it was added, which makes room again.`,
  recipientsFull: `You have ${RECIPIENTS_MAX} saved recipients, the most an account keeps. Remove one in My Profile to save another.`,
  recipientsTooMany: 'Too many recipients were saved in the last hour. Please try again later.',
  onTheCake: (message: string) => `On the cake: ${message}`,
  sendToSomeoneElse: 'Send to someone else',
  hidePrice: 'No price in the box',
  hideSender: "Don't say who it's from",
  card: 'Add a free card',
  /** The shop's notice in words (the `photoCakeNoticeDays` setting, domain/settings.ts). */
  photoCakeNotice: (days: number = PHOTO_CAKE_NOTICE_DAYS) =>
    days <= 0
      ? 'A photo cake can be printed and delivered the same day.'
      : days === 1
        ? "A photo cake needs a day's notice: the earliest delivery is tomorrow."
        : `A photo cake needs ${days} days' notice.`,
} as const;

// One Segmenter for the module: building one per keystroke is measurable on a slow phone.
let segmenter: Intl.Segmenter | null | undefined;
function graphemes(): Intl.Segmenter | null {
  if (segmenter === undefined) {
    segmenter =
      typeof Intl !== 'undefined' && 'Segmenter' in Intl
        ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
        : null;
  }
  return segmenter;
}

/**
 * Characters as a person counts them (extended grapheme clusters): a Devanagari or Gurmukhi
 * letter with its vowel sign is one, an emoji with its joiners or a flag is one. Without
 * `Intl.Segmenter` (very old browsers) it counts code points, which only ever counts more, so
 * such a device refuses early rather than sending what the server refuses.
 */
export function countCharacters(text: string): number {
  // Printable ASCII is one character per letter, and the Segmenter's first use builds ICU's break
  // rules: most of the product page's first render on a slow phone, for an empty message's "0/40".
  if (/^[\x20-\x7E]*$/.test(text)) return text.length;
  const seg = graphemes();
  if (!seg) return [...text].length;
  let n = 0;
  for (const _ of seg.segment(text)) n++;
  return n;
}

/** Control characters (C0, DEL, C1) and the Unicode line and paragraph separators. ZWJ/ZWNJ are format characters, allowed. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const NOT_ONE_LINE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u2028\u2029]/;

/** A lone half of a UTF-16 pair: PostgreSQL cannot store it, and no keyboard types one. */
function hasLoneSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

/** Null when the cake's message is fine (after trimming); otherwise what to tell the shopper. */
export function cakeMessageProblem(text: string): string | null {
  if (NOT_ONE_LINE.test(text) || hasLoneSurrogate(text)) return giftMessages.cakeMessageControl;
  if (text.length > CAKE_MESSAGE_MAX * UNITS_PER_CHARACTER || countCharacters(text) > CAKE_MESSAGE_MAX) {
    return giftMessages.cakeMessageTooLong;
  }
  return null;
}

/** Null when the card's message is fine; line breaks are allowed (a card has lines). */
export function cardMessageProblem(text: string): string | null {
  if (CONTROL_BUT_NEWLINE.test(text) || hasLoneSurrogate(text)) return giftMessages.cardMessageControl;
  if (text.length > CARD_MESSAGE_MAX * UNITS_PER_CHARACTER || countCharacters(text) > CARD_MESSAGE_MAX) {
    return giftMessages.cardMessageTooLong;
  }
  return null;
}

/** A check that reports the rule's own message (too long, or characters not allowed). */
const ruleCheck = (problem: (s: string) => string | null) =>
  v.rawCheck<string>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const message = problem(dataset.value);
    if (message) addIssue({ message });
  });

/**
 * The message on a cake as the order and the cart carry it: trimmed, '' is none (null). Used as
 * `v.optional(CakeMessageSchema)` with no default, so an order without messages hashes as before.
 */
export const CakeMessageSchema = v.nullable(
  v.pipe(
    v.string('The message on the cake must be text.'),
    v.trim(),
    ruleCheck(cakeMessageProblem),
    v.transform((s): string | null => (s === '' ? null : s)),
  ),
);

/** The server's id of an uploaded cake photo (a UUID it made). */
export const PhotoIDSchema = v.pipe(
  v.string(giftMessages.photoUnknown),
  v.trim(),
  v.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, giftMessages.photoUnknown),
  v.toLowerCase(),
);

export const RECIPIENT_NAME_MAX = 100;

const RecipientNameSchema = v.pipe(
  v.string(giftMessages.recipientName),
  v.trim(),
  v.nonEmpty(giftMessages.recipientName),
  v.maxLength(RECIPIENT_NAME_MAX, tooLongMessage("The recipient's name", RECIPIENT_NAME_MAX)),
  singleLine("The recipient's name"),
);
/** The account's phone rule (`phone.ts`): "+91 98765 01234" is kept as 9876501234. */
const RecipientPhoneSchema = MobileSchema(giftMessages.recipientPhone);

/** "Send to someone else": the order's address fields are then the recipient's. */
export const RecipientSchema = v.object({
  Name: RecipientNameSchema,
  Phone: RecipientPhoneSchema,
  /** Keep the recipient in the account's saved recipients when the order is placed. */
  Save: v.optional(v.boolean()),
});
export type Recipient = v.InferOutput<typeof RecipientSchema>;

export const GiftCardSchema = v.object({
  Occasion: v.picklist(CARD_OCCASIONS, giftMessages.cardOccasion),
  Message: v.optional(
    v.pipe(
      v.string("The card's message must be text."),
      v.transform((s) => s.replace(/\r\n?/g, '\n')),
      v.trim(),
      ruleCheck(cardMessageProblem),
    ),
    '',
  ),
});
export type GiftCard = v.InferOutput<typeof GiftCardSchema>;

/**
 * The earliest delivery date of a photo cake: the shop's notice in days from today in India
 * (the print needs a day by default; `photoCakeNoticeDays` in domain/settings.ts).
 */
export function earliestPhotoCakeDate(now: Date, noticeDays: number = PHOTO_CAKE_NOTICE_DAYS): string {
  return addDays(indiaClock(now).date, noticeDays);
}

/** Null when a photo cake can be delivered on `date`; otherwise the earliest date it can. */
export function photoCakeDateProblem(
  date: string,
  now: Date,
  noticeDays: number = PHOTO_CAKE_NOTICE_DAYS,
): { earliest: string } | null {
  const earliest = earliestPhotoCakeDate(now, noticeDays);
  return isCalendarDate(date) && date >= earliest ? null : { earliest };
}

/** A gift with no price in the box cannot be Cash on Delivery: the recipient would be asked to pay. */
export function giftPaymentProblem(o: {
  recipient: boolean;
  hidePrice: boolean;
  paymentMethod: PaymentMethod;
}): string | null {
  return o.recipient && o.hidePrice && o.paymentMethod === PAYMENT_METHODS.cod ? giftMessages.giftCod : null;
}

// ---------------------------------------------------------------------------
// Saved recipients (My Profile): per account, on the device too.
// ---------------------------------------------------------------------------

const field = (label: string, max: number) =>
  v.pipe(
    v.string(`${label} is required.`),
    v.trim(),
    v.nonEmpty(`${label} is required.`),
    v.maxLength(max, `${label} can be at most ${max} characters.`),
  );

export const SavedRecipientInputSchema = v.object({
  name: RecipientNameSchema,
  phone: RecipientPhoneSchema,
  address: v.pipe(
    field('The address', 500),
    v.check(
      (s) => !CONTROL_BUT_NEWLINE.test(s) && !hasLoneSurrogate(s),
      'The address contains characters that are not allowed.',
    ),
  ),
  city: v.pipe(field('City', 60), singleLine('City')),
  state: v.pipe(field('State', 60), singleLine('State')),
  pincode: v.pipe(
    v.union([v.string(), v.number()], 'Pincode is required'),
    v.transform((x) => String(x).trim()),
    v.check(isValidPincode, 'Pincode must be 6 digits.'),
  ),
});
export type SavedRecipientInput = v.InferOutput<typeof SavedRecipientInputSchema>;

export const SavedRecipientSchema = v.object({
  id: int,
  name: v.string(),
  phone: v.string(),
  address: v.string(),
  city: v.string(),
  state: v.string(),
  pincode: v.string(),
});
export type SavedRecipient = v.InferOutput<typeof SavedRecipientSchema>;

// ---------------------------------------------------------------------------
// What answers carry.
// ---------------------------------------------------------------------------

/** The answer to a photo upload. */
export const CakePhotoSchema = v.object({
  photoID: v.string(),
  width: int,
  height: int,
});
export type CakePhoto = v.InferOutput<typeof CakePhotoSchema>;

export const PhotoSizeQuerySchema = v.object({
  size: v.optional(v.picklist(['preview', 'full'], 'The size must be preview or full.'), 'preview'),
});

export const OrderRecipientSchema = v.object({ name: v.string(), phone: v.string() });
export const OrderCardSchema = v.object({ occasion: v.string(), message: v.string() });

/** The gift choices an order answer carries (the admin's, the shopper's, the history's). */
export const orderGiftEntries = {
  recipient: v.nullable(OrderRecipientSchema),
  hidePrice: v.boolean(),
  hideSender: v.boolean(),
  card: v.nullable(OrderCardSchema),
};
export interface OrderGift {
  recipient: { name: string; phone: string } | null;
  hidePrice: boolean;
  hideSender: boolean;
  card: { occasion: string; message: string } | null;
}

/** What a line carries beyond its product: the cake's message and the photo's id. */
export const lineGiftEntries = {
  cakeMessage: v.nullable(v.string()),
  photoID: v.nullable(v.string()),
};
