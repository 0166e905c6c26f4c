/**
 * The footer's Subscribe (DESIGN.md departure 16): an address joins the shop's mailing list only
 * after its owner opens the link of a confirmation mail (double opt-in), and every mail to the
 * list carries a link that takes the address off it. The same schemas check the footer's form
 * and the server's input; the texts are what the footer, the confirm and unsubscribe page and the
 * server say.
 */
import * as v from 'valibot';
import { EmailSchema } from './accounts.js';

/** How long a confirmation link works. */
export const CONFIRM_DAYS = 7;

export const newsletterMessages = {
  /** The one answer to a subscribe, whether the address is new, waiting or already on the list. */
  checkInbox: 'Check your inbox to confirm your subscription.',
  offline:
    'Subscribing needs an internet connection. Your address is kept here; try again when you are back online.',
  failed: 'We could not subscribe you just now. Please try again.',
  tooMany: 'Too many requests from here. Please wait a while and try again.',
  confirming: 'Confirming your subscription…',
  /** The confirm and unsubscribe page's titles when the link did not do its work. */
  linkFails: 'This link does not work',
  notConfirmed: 'Not confirmed yet',
  subscribed: "You're subscribed",
  subscribedText: 'Thank you! We will send our news and offers to this address.',
  alreadySubscribed: "You're already subscribed. Thank you!",
  confirmUnknown:
    'This confirmation link is not valid: it may have been replaced by a newer mail. Use the link in our newest mail, or subscribe again.',
  confirmExpired: `This confirmation link has expired (links work for ${CONFIRM_DAYS} days). Subscribe again to get a new one.`,
  confirmNeedsConnection: 'Confirming needs an internet connection. Try again when you are back online.',
  unsubscribeAsk: 'Stop getting our mails at this address?',
  unsubscribed: "You're unsubscribed. We will not send this address any more mail.",
  unsubscribedTitle: "You're unsubscribed",
  unsubscribedText: 'We will not send this address any more mail.',
  alreadyUnsubscribed: 'This address is no longer on our list.',
  unsubscribeUnknown:
    'This unsubscribe link is not valid. Use the link in our newest mail, or write to us and we will take you off the list.',
  unsubscribeNeedsConnection:
    'Unsubscribing needs an internet connection. Try again when you are back online.',
  /** A browser that opens the one-click address (GET) is sent to the page, which asks first. */
  openThePage:
    "To unsubscribe, open the page named in data.page and press Unsubscribe; your mail app's own Unsubscribe button does it in one step.",
  linkIncomplete: 'This link is not complete. Open it again from the mail, or copy the whole link.',
  /** The admin's words. */
  exportReady: (n: number) => `${n} subscriber${n === 1 ? '' : 's'} exported.`,
} as const;

// A missing field reads as empty, so it gets the field's own message rather than valibot's generic one.
export const SubscribeSchema = v.object({ email: v.optional(EmailSchema(), '') });
export type SubscribeInput = v.InferOutput<typeof SubscribeSchema>;

/** A confirmation token: 32 random bytes in base64url, as the mail's link carries it. */
export const ConfirmTokenSchema = v.pipe(
  v.string(newsletterMessages.linkIncomplete),
  v.regex(/^[A-Za-z0-9_-]{43}$/, newsletterMessages.linkIncomplete),
);
export const ConfirmSchema = v.object({ token: ConfirmTokenSchema });

/** An unsubscribe token: the subscription's number and the server's signature of it. */
export const UnsubscribeTokenSchema = v.pipe(
  v.string(newsletterMessages.linkIncomplete),
  v.regex(/^[1-9]\d{0,14}\.[A-Za-z0-9_-]{43}$/, newsletterMessages.linkIncomplete),
);
export const UnsubscribeQuerySchema = v.object({ token: UnsubscribeTokenSchema });

/** The pages the mails link to; the token rides in the fragment, which no server (or log) ever sees. */
export const NEWSLETTER_PATHS = {
  confirm: '/newsletter/confirm',
  unsubscribe: '/newsletter/unsubscribe',
} as const;

export const ConfirmedSchema = v.object({ alreadySubscribed: v.boolean() });
export const UnsubscribedSchema = v.object({ wasSubscribed: v.boolean() });
export const UnsubscribePageSchema = v.object({ page: v.string() });
export const SubscriberCountsSchema = v.object({
  confirmed: v.pipe(v.number(), v.integer()),
  /** Addresses that asked and have not confirmed yet, within the link's lifetime. */
  pending: v.pipe(v.number(), v.integer()),
});
export type SubscriberCounts = v.InferOutput<typeof SubscriberCountsSchema>;
