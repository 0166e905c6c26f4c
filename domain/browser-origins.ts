/**
 * The other sites the shop's pages load from, written once: the page code
 * uses them, and the server's Content-Security-Policy (api/plugins/security-headers.ts)
 * allows exactly these and nothing else, so a new outside origin in the page
 * and a missing one in the policy cannot drift apart.
 */

/** Razorpay Standard Checkout's script (loaded only when the shopper pays online). */
export const RAZORPAY_CHECKOUT_SCRIPT = 'https://checkout.razorpay.com/v1/checkout.js';

/**
 * Razorpay Checkout in the page: the script's origin, the API its script calls,
 * and the API origin that also serves the checkout window it frames.
 */
export const RAZORPAY_BROWSER_ORIGINS = {
  script: 'https://checkout.razorpay.com',
  api: 'https://api.razorpay.com',
} as const;

/** The store maps on Contact (an iframe, shown only when the shopper asks for it). */
export const STORE_MAP_ORIGIN = 'https://www.openstreetmap.org';
