/**
 * The tokens of the list's links and the mails that carry them.
 *
 * A confirmation token is random and only its hash is stored. An unsubscribe token is the
 * subscription's id signed with the list's key (HMAC-SHA256): nothing secret is stored per
 * address, and any mail to the list, now or later, can carry a working link.
 *
 * Links to the shop's pages carry their token in the fragment, which the browser never sends: no
 * server, proxy or log sees it. The List-Unsubscribe header's address must carry it in the URL
 * (RFC 8058: the mail client POSTs to it as it is); the route that answers it logs nothing.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { newsletterApi } from '../../domain/newsletter.contract.js';
import { CONFIRM_DAYS, NEWSLETTER_PATHS } from '../../domain/newsletter.js';
import { fastifyPath } from '../http/route.js';
import type { Mail } from '../mail/mailer.js';

export function newConfirmToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const signature = (key: string, id: number) =>
  createHmac('sha256', key).update(`unsubscribe:${id}`).digest('base64url');

export function unsubscribeToken(key: string, id: number): string {
  return `${id}.${signature(key, id)}`;
}

/** The subscription an unsubscribe token names, or null when its signature is not ours. */
export function unsubscribeId(key: string, token: string): number | null {
  const [idText = '', mac = ''] = token.split('.');
  const id = Number(idText);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const expected = Buffer.from(signature(key, id));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

/** Every address a list mail needs, from the shop's origin. */
export function listLinks(origin: string, unsubscribe: string, confirm?: string) {
  return {
    confirmPage: confirm ? `${origin}${NEWSLETTER_PATHS.confirm}#${confirm}` : '',
    unsubscribePage: `${origin}${NEWSLETTER_PATHS.unsubscribe}#${unsubscribe}`,
    oneClick: `${origin}${fastifyPath(newsletterApi.unsubscribe.path)}?token=${unsubscribe}`,
  };
}
type Links = ReturnType<typeof listLinks>;

/**
 * A mail to the list from the shop (`shop`: its name as the profile has it now): the unsubscribe
 * page's link at the foot of the text, and the RFC 8058
 * headers, with which a mail client offers its own Unsubscribe button and POSTs to the
 * one-click address.
 */
function listMail(to: string, subject: string, body: string, links: Links, shop: string): Mail {
  return {
    to,
    subject,
    text:
      `${body}\n\n-- \n` +
      `You get this mail because this address asked to hear from ${shop}.\n` +
      `Unsubscribe: ${links.unsubscribePage}\n`,
    headers: {
      'List-Unsubscribe': `<${links.oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

export function confirmMail(to: string, links: Links, shop: string): Mail {
  return listMail(
    to,
    `Please confirm your subscription to ${shop}`,
    `Someone (we hope you) asked to get news and offers from ${shop} at this address.\n\n` +
      `To confirm, open this link within ${CONFIRM_DAYS} days:\n\n    ${links.confirmPage}\n\n` +
      'If it was not you, ignore this mail: without the link, this address gets nothing more from us.',
    links,
    shop,
  );
}

export function welcomeMail(to: string, links: Links, shop: string): Mail {
  return listMail(
    to,
    `You're subscribed to ${shop}`,
    `Thank you for confirming. We will write now and then with our news, new cakes and offers.\n\n` +
      'You can leave the list at any time with the link below.',
    links,
    shop,
  );
}

/** Sent to an address already on the list that asks again: it learns nothing new, and can leave. */
export function alreadySubscribedMail(to: string, links: Links, shop: string): Mail {
  return listMail(
    to,
    `You're already subscribed to ${shop}`,
    'Someone (we hope you) asked to subscribe this address, which is on our list already: nothing has changed.\n\n' +
      'To stop getting our mails, use the link below.',
    links,
    shop,
  );
}
