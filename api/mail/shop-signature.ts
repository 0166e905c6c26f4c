/**
 * Who a mail is from and how it ends, from the shop's profile as saved when it is sent: the
 * sender's display name is the shop's name (the address stays `MAIL_FROM`'s), and every mail ends
 * with the shop's legal name, its first store's address and customer care's phone and email; a
 * mail about an order adds the FSSAI line, as a bill does. A detail the profile leaves empty is
 * left out, never an empty label.
 */
import { fssaiLine, type ShopProfile, storeAddress } from '../../domain/shop-profile.js';

/** The address of a `MAIL_FROM` ("Name <address>" or a bare address). */
export function senderAddress(mailFrom: string): string {
  return /<([^<>]+)>\s*$/.exec(mailFrom)?.[1]?.trim() ?? mailFrom.trim();
}

export function mailFooter(profile: ShopProfile, about: { order?: boolean } = {}): string {
  const store = profile.stores[0];
  const care = [profile.care.phone, profile.care.email].filter(Boolean).join(' · ');
  const lines = [
    profile.legalName || profile.name,
    store ? storeAddress(store) : '',
    care ? `Customer care: ${care}` : '',
    about.order ? fssaiLine(profile.fssai) : '',
  ];
  return lines.filter(Boolean).join('\n');
}

/** The text with the footer at its foot, under the signature separator ("-- ") once. */
export function withFooter(text: string, footer: string): string {
  const body = text.replace(/\s+$/, '');
  const separator = body.includes('\n-- \n') ? '\n' : '\n\n-- \n';
  return `${body}\n${separator}${footer}\n`;
}
