/**
 * How the shop is reached and paid: the footer's payment marks, its social profiles, the
 * contact details. Apart from `domain/shop.ts` because only screens below the fold or off the
 * first screen (the lazy footer, Contact, About us) and the server use them: kept there, they
 * would ride in the first screen's JavaScript on every first visit.
 */
/** The footer's payment marks, drawn in the stylesheet (`.pay--{id}`); the names are what a screen reader says. */
export const PAYMENT_METHODS = [
  { id: 'upi', name: 'UPI' },
  { id: 'visa', name: 'Visa' },
  { id: 'mastercard', name: 'Mastercard' },
  { id: 'rupay', name: 'RuPay' },
  { id: 'netbanking', name: 'Net banking' },
  { id: 'cod', name: 'Cash on delivery' },
] as const;

/**
 * The shop's social profiles, from the build's settings
 * (`VITE_SHOP_INSTAGRAM_URL`, `VITE_SHOP_FACEBOOK_URL`, `VITE_SHOP_YOUTUBE_URL`).
 * Only an https address counts: an unset or mistyped one shows no icon rather
 * than a link to nowhere.
 */
export const SOCIAL_NETWORKS = [
  { id: 'instagram', name: 'Instagram', setting: 'VITE_SHOP_INSTAGRAM_URL' },
  { id: 'facebook', name: 'Facebook', setting: 'VITE_SHOP_FACEBOOK_URL' },
  { id: 'youtube', name: 'YouTube', setting: 'VITE_SHOP_YOUTUBE_URL' },
] as const;
export function socialProfiles(
  env: Readonly<Record<string, unknown>>,
): { id: string; name: string; url: string }[] {
  return SOCIAL_NETWORKS.flatMap(({ id, name, setting }) => {
    const raw = env[setting];
    if (typeof raw !== 'string') return [];
    try {
      const url = new URL(raw.trim());
      return url.protocol === 'https:' ? [{ id, name, url: url.href }] : [];
    } catch {
      return [];
    }
  });
}

/** How to reach the shop (footer, contact page). */
export const SHOP_CONTACT = {
  email: 'hello@bakeryandblooms.in',
  phone: '+91 98765 43210',
  founded: 2015,
} as const;
