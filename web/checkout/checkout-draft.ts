/**
 * The checkout's draft on the phone (Dexie `drafts`, one row per account): what the shopper
 * typed (pincode, date, name, address, slot, gift, recipient, card and its message) survives a
 * reload and a payment window that took the page with it (a UPI app on a low-memory phone). It
 * goes when an order is queued from it (`place.ts`), when the shopper taps Clear, and at logout
 * with the account's other personal data (`keepOnlyAccount`). A draft older than the account's
 * newest order on the phone was ordered already (a payment found again after the page died places
 * its order without this screen) and is dropped rather than offered again.
 */
import { CARD_OCCASIONS, type CardOccasion } from '../../domain/gifts.js';
import { indiaClock } from '../../domain/india-time.js';
import { ownOutboxRows } from '../../sw/account-data.js';
import { checkoutDrafts } from '../../sw/checkout-drafts.js';
import type { CheckoutDraftRow } from '../../sw/db-rows.js';
import { type GiftState, noGift } from './GiftOptions.js';

/** The checkout form's own fields (State and City are the pincode's, never typed). */
export interface FormState {
  DeliveryDate: string;
  CustomerName: string;
  CustomerAddress: string;
  CustomerPincode: string;
}

export interface CheckoutDraft {
  form: FormState;
  dateChosen: boolean;
  slotID: number | null;
  gift: GiftState;
}

const text = (x: unknown): string => (typeof x === 'string' ? x : '');
const flag = (x: unknown): boolean => x === true;

/** A kept gift read back field by field: a row written by another version never breaks the form. */
function giftOf(raw: Record<string, unknown>): GiftState {
  const occasion = CARD_OCCASIONS.find((o) => o === raw.occasion) as CardOccasion | undefined;
  return {
    toSomeoneElse: flag(raw.toSomeoneElse),
    name: text(raw.name),
    phone: text(raw.phone),
    save: flag(raw.save),
    hidePrice: flag(raw.hidePrice),
    hideSender: flag(raw.hideSender),
    card: flag(raw.card),
    occasion: occasion ?? noGift.occasion,
    message: text(raw.message),
  };
}

/** The account's draft, or null: none, or one an order on this phone was made after. */
export async function loadDraft(userId: number, now = new Date()): Promise<CheckoutDraft | null> {
  const row = await checkoutDrafts().get(userId);
  if (!row) return null;
  const newest = Math.max(0, ...(await ownOutboxRows(userId)).map((r) => r.createdAt));
  if (newest >= row.savedAt) {
    await checkoutDrafts().delete(userId);
    return null;
  }
  const f = row.fields;
  // A date that has passed is not kept: the checkout suggests the first one it can deliver on.
  const date = text(f.DeliveryDate);
  const dateChosen = row.dateChosen && date >= indiaClock(now).date;
  return {
    form: {
      DeliveryDate: date,
      CustomerName: text(f.CustomerName),
      CustomerAddress: text(f.CustomerAddress),
      CustomerPincode: text(f.CustomerPincode),
    },
    dateChosen,
    slotID: typeof row.slotID === 'number' ? row.slotID : null,
    gift: giftOf(row.gift),
  };
}

export async function saveDraft(userId: number, draft: CheckoutDraft): Promise<void> {
  const row: CheckoutDraftRow = {
    userId,
    fields: { ...draft.form },
    dateChosen: draft.dateChosen,
    slotID: draft.slotID,
    gift: { ...draft.gift },
    savedAt: Date.now(),
  };
  await checkoutDrafts().put(row);
}

export async function clearDraft(userId: number): Promise<void> {
  await checkoutDrafts().delete(userId);
}
