/**
 * The `drafts` table (`CheckoutDraftRow`), typed once for its two users: the checkout,
 * which keeps what was typed (`web/checkout/checkout-draft.ts`), and the logout, which takes it off
 * the phone (`keepOnlyAccount`). Not a field of `ShopDatabase`: a class field is code in the first
 * screen's bundle, and only screens loaded later read this table.
 */
import { db, type ShopDatabase } from './db.js';
import type { CheckoutDraftRow } from './db-rows.js';

export function checkoutDrafts(store: ShopDatabase = db) {
  return store.table<CheckoutDraftRow, number>('drafts');
}
