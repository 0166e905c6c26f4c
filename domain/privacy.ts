/*
 * The figures the privacy policy's default promises (domain/policy-defaults.ts), kept beside the rules that make them true: a test
 * (tests/unit/product-page.test.ts) holds each against the server's own constant, so the page cannot
 * promise a time the server does not keep.
 */

/** A cake photo no order carries is deleted this many days after its upload (api/orders' sweep). */
export const UNORDERED_PHOTO_DAYS = 30;

/** A one-time code (registration, login, password reset) works for this many minutes. */
export const CODE_MINUTES = 10;
