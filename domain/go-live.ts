/**
 * "Make it yours": what a shop that started from the demo still has to do before it goes live, and
 * what is left of the demo's catalogue. The rules are here, pure; the server gathers the facts
 * (`api/golive`) and the dashboard's card shows the answer (`web/admin/GoLiveChecklist.tsx`).
 */
import * as v from 'valibot';
import type { DeliveryArea } from './delivery-areas.js';
import { SEED_AREAS } from './delivery-areas.js';
import type { PaymentProviderName } from './payments.contract.js';
import { DEMO_PROFILE, type ShopProfile } from './shop-profile.js';

/** The demo shop's coupon, which its product pages advertise (the demo seed writes the offer). */
export const DEMO_COUPON = 'SAVE200';

export const GO_LIVE_ITEM_IDS = ['profile', 'fssai', 'grievance', 'areas', 'payments', 'policies'] as const;
export type GoLiveItemId = (typeof GO_LIVE_ITEM_IDS)[number];

/**
 * The admin screen each item is done on (the admin area's paths have no prefix: web/admin/paths.ts).
 * Online payment is switched on where the shop runs (Razorpay's keys, docs/operations.md); the
 * choice of Cash on Delivery only is a tick box on Shop settings, whose help says both.
 */
export const GO_LIVE_PATHS: Readonly<Record<GoLiveItemId, string>> = {
  profile: '/shop-profile',
  fssai: '/shop-profile',
  grievance: '/shop-profile',
  areas: '/delivery-areas',
  payments: '/shop-settings',
  policies: '/policies',
};

export const GO_LIVE_LABELS: Readonly<Record<GoLiveItemId, string>> = {
  profile: 'Your shop’s name, phone and email',
  fssai: 'Your FSSAI licence or registration number',
  grievance: 'Your grievance officer',
  areas: 'Your delivery areas',
  payments: 'Online payment, or Cash on Delivery only',
  policies: 'Your policies, read',
};

/** What the checklist is decided from: the saved settings, the live delivery areas, the payment set-up. */
export interface GoLiveFacts {
  /** The profile has a row of its own (the demo seed writes one: then it must differ from the demo's). */
  profileSaved: boolean;
  profile: ShopProfile;
  /** The live delivery areas. */
  areas: readonly DeliveryArea[];
  /** The online payment provider the server runs with (`GET /api/payments/methods`), null for none. */
  provider: PaymentProviderName | null;
  codOnlyConfirmed: boolean;
  policiesReviewed: boolean;
}

export const GoLiveItemSchema = v.object({
  id: v.picklist(GO_LIVE_ITEM_IDS),
  label: v.string(),
  done: v.boolean(),
  /** The admin screen it is done on. */
  path: v.string(),
  /** What is still missing, in a sentence; empty when done. */
  hint: v.string(),
});
export type GoLiveItem = v.InferOutput<typeof GoLiveItemSchema>;

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const digits = (phone: string) => phone.replace(/\D/g, '').slice(-10);

/**
 * The profile is the owner's when it was saved with a name that is not the demo's and a customer
 * care phone or email, neither of them the demo's. The demo's name is also the default's, so a shop
 * that never saved its profile is not done either.
 */
export function profileIsOwn(facts: Pick<GoLiveFacts, 'profileSaved' | 'profile'>): boolean {
  const { profile: p } = facts;
  const { phone, email } = p.care;
  return (
    facts.profileSaved &&
    p.name.trim() !== '' &&
    !same(p.name, DEMO_PROFILE.name) &&
    (phone.trim() !== '' || email.trim() !== '') &&
    (phone.trim() === '' || digits(phone) !== digits(DEMO_PROFILE.care.phone)) &&
    (email.trim() === '' || !same(email, DEMO_PROFILE.care.email))
  );
}

/**
 * The delivery areas are the owner's when the shop delivers somewhere and the list is no longer the
 * one the shop was installed with (`SEED_AREAS`, the spec's five cities): a pincode added or
 * removed, or a charge, slot list or same-day choice changed. The rows carry no "made by" mark,
 * and the list is what a shopper sees, so it is compared as a whole.
 */
export function areasAreOwn(areas: readonly DeliveryArea[]): boolean {
  if (areas.length === 0) return false;
  const key = (a: DeliveryArea) =>
    JSON.stringify([
      a.pincode,
      a.city,
      a.state,
      a.charge,
      a.sameDay,
      a.slotIDs ? [...a.slotIDs].sort() : null,
    ]);
  const seed = new Set(SEED_AREAS.map(key));
  return areas.length !== seed.size || areas.some((a) => !seed.has(key(a)));
}

/**
 * Payments are ready with Razorpay configured, or when the owner chose Cash on Delivery only. The
 * local test provider moves no money: it does not count.
 */
export function paymentsReady(facts: Pick<GoLiveFacts, 'provider' | 'codOnlyConfirmed'>): boolean {
  return facts.provider === 'razorpay' || facts.codOnlyConfirmed;
}

function item(id: GoLiveItemId, done: boolean, missing: string): GoLiveItem {
  return { id, label: GO_LIVE_LABELS[id], done, path: GO_LIVE_PATHS[id], hint: done ? '' : missing };
}

/** The checklist, in the order the card lists it. */
export function goLiveChecklist(facts: GoLiveFacts): GoLiveItem[] {
  const g = facts.profile.grievance;
  return [
    item('profile', profileIsOwn(facts), 'The shop still has the demo’s name or customer care.'),
    item('fssai', facts.profile.fssai.trim() !== '', 'Food sold online needs the 14-digit FSSAI number.'),
    item(
      'grievance',
      g.name.trim() !== '' && (g.phone.trim() !== '' || g.email.trim() !== ''),
      'The law asks for a grievance officer’s name and a phone or email.',
    ),
    item('areas', areasAreOwn(facts.areas), 'The delivery areas are still the demo’s.'),
    item(
      'payments',
      paymentsReady(facts),
      facts.provider === 'test'
        ? 'Online payment is the test provider: no money moves. Set Razorpay’s keys, or choose Cash on Delivery only.'
        : 'Set Razorpay’s keys, or choose Cash on Delivery only.',
    ),
    item('policies', facts.policiesReviewed, 'Read the policy pages and mark them read.'),
  ];
}

/** What is left of the demo: its untouched products and categories, their pictures, its coupon. */
export const DemoLeftSchema = v.object({
  products: v.number(),
  categories: v.number(),
  images: v.number(),
  /** The demo coupon (SAVE200) is still on offer. */
  coupon: v.boolean(),
});
export type DemoLeft = v.InferOutput<typeof DemoLeftSchema>;

export const GoLiveSchema = v.object({
  items: v.array(GoLiveItemSchema),
  demo: DemoLeftSchema,
  /** Every item is done and nothing of the demo is left: the card goes. */
  ready: v.boolean(),
});
export type GoLive = v.InferOutput<typeof GoLiveSchema>;

export const DemoRemovedSchema = v.object({
  products: v.number(),
  categories: v.number(),
  images: v.number(),
  /** What became of the demo coupon: deleted, ended (orders used it, so it stays, inactive), or nothing. */
  coupon: v.picklist(['deleted', 'ended', 'none']),
  /** The product pages' offer named the demo coupon and was cleared. */
  offerCleared: v.boolean(),
});
export type DemoRemoved = v.InferOutput<typeof DemoRemovedSchema>;

export function demoLeftAny(d: DemoLeft): boolean {
  return d.products + d.categories + d.images > 0 || d.coupon;
}

export function isReady(items: readonly GoLiveItem[], demo: DemoLeft): boolean {
  return items.every((i) => i.done) && !demoLeftAny(demo);
}

export const goLiveMessages = {
  /** The confirmation's question, with what will go and what stays. */
  confirmRemoval: (d: DemoLeft) =>
    `Remove the demo catalogue: ${demoParts(d)}? Orders, and the products and categories you added or changed, stay.`,
  removed: (r: DemoRemoved) => {
    const parts = demoParts({
      products: r.products,
      categories: r.categories,
      images: r.images,
      coupon: r.coupon !== 'none',
    });
    const offer = r.offerCleared ? ` The product pages no longer advertise ${DEMO_COUPON}.` : '';
    if (!parts) return offer ? offer.trim() : goLiveMessages.nothingLeft;
    return `Removed ${parts}.${offer}`;
  },
  nothingLeft: 'Nothing of the demo catalogue was left to remove.',
} as const;

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "12 products, 3 categories, 12 pictures and the coupon SAVE200". */
export function demoParts(d: DemoLeft): string {
  const parts = [
    d.products ? count(d.products, 'product') : '',
    d.categories ? count(d.categories, 'category', 'categories') : '',
    d.images ? count(d.images, 'picture') : '',
    d.coupon ? `the coupon ${DEMO_COUPON}` : '',
  ].filter(Boolean);
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
