/**
 * The policies' default texts, written from the shop's own settings and facts: its delivery areas
 * and charges, its slots and cut-offs, the photo cake's notice, whether it takes payment online,
 * how refunds work today (the shop's cancel refunds an online payment in full, `refunds.ts`), and
 * its profile (who to write to; a detail the shop does not have is left out). Computed wherever a
 * page is shown, never stored, so a change of a setting changes them at once. Nothing here may
 * promise what the shop does not do: a shopper cancels from the order page only within the rule
 * (`order-cancel.ts`, with the shop's `cancelHoursBeforeSlot`), so the text says that rule and how
 * to ask after it. Apart from `policies.ts` so the footer's links (the first screen) never carry this.
 */
import { areaCities, citiesText, type DeliveryArea, deliveryAreasText } from './delivery-areas.js';
import { DELIVERY_BY_PINCODE } from './delivery-words.js';
import { formatRupees } from './money.js';
import { cancelMessages } from './order-cancel.js';
import { CHECKOUT_DISPLAY, onlineMethodsShown } from './payment-methods.js';
import type { Policies, PolicyKey } from './policies.js';
import { CODE_MINUTES, UNORDERED_PHOTO_DAYS } from './privacy.js';
import { fssaiLine, type ShopProfile, storeAddress } from './shop-profile.js';
import type { DeliverySlot } from './slot-schema.js';
import { clockLabel, slotOfferLabel, sortSlots } from './slots.js';

/** What the defaults are written from: the shop's own settings and facts, as the device or the server has them. */
export interface PolicyFacts {
  profile: ShopProfile;
  /** The delivery areas; undefined while a device has none yet (before its first sync). */
  areas: readonly DeliveryArea[] | undefined;
  /** The delivery slots (retired ones are left out here); undefined while not known. */
  slots: readonly DeliverySlot[] | undefined;
  /** The `photoCakeNoticeDays` setting. */
  noticeDays: number;
  /** Whether the shop takes payment online (`GET /payments/methods`); undefined: not known here. */
  online: boolean | undefined;
  /** The `cancelHoursBeforeSlot` setting: until when a shopper cancels from the order page. */
  cancelHours: number;
}

const DAY_MINUTES = 24 * 60;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;
const list = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** "order by 6 PM on the day", "order by 9 PM the day before", "order by 6 PM 2 days before". */
export function cutoffWords(cutoff: number): string {
  if (cutoff >= 0) return `order by ${clockLabel(cutoff)} on the day`;
  const before = Math.ceil(-cutoff / DAY_MINUTES);
  const at = clockLabel(cutoff + before * DAY_MINUTES);
  return `order by ${at} ${before === 1 ? 'the day before' : `${days(before)} before`}`;
}

/** "Midnight, 11 PM – 12 AM, ₹250: order by 9 PM on the day (Saturday and Sunday only)." */
export function slotPolicyLine(slot: DeliverySlot): string {
  const when =
    slot.weekdays.length >= 7
      ? ''
      : ` (${list([...slot.weekdays].sort().map((d) => WEEKDAYS[d] ?? ''))} only)`;
  return `${slotOfferLabel(slot)}: ${cutoffWords(slot.cutoff)}${when}.`;
}

/** The lines saying how to reach the shop's customer care; empty when the shop has written none. */
function careLines(p: ShopProfile): string[] {
  const c = p.care;
  return [
    c.phone ? `- Phone: ${c.phone}` : '',
    c.whatsapp ? `- WhatsApp: ${c.whatsapp}` : '',
    c.email ? `- Email: ${c.email}` : '',
    c.hours && (c.phone || c.whatsapp || c.email) ? `- Hours: ${c.hours}` : '',
  ].filter(Boolean);
}

/** How to ask the shop something, in a sentence's words: "write to x or call y", or the contact page. */
function askUs(p: ShopProfile): string {
  const ways = [
    p.care.email ? `write to ${p.care.email}` : '',
    p.care.phone ? `call ${p.care.phone}` : '',
    p.care.whatsapp ? `send a WhatsApp message to ${p.care.whatsapp}` : '',
  ].filter(Boolean);
  if (ways.length <= 1) return ways[0] ?? 'write to us with the form on our Contact page';
  return `${ways.slice(0, -1).join(', ')} or ${ways[ways.length - 1]}`;
}

function grievanceSection(p: ShopProfile): string[] {
  const g = p.grievance;
  if (!g.name && !g.email && !g.phone) return [];
  const who = [g.name, g.designation].filter(Boolean).join(', ');
  return [
    '## Grievance officer',
    'If we have not put a problem right, write to our grievance officer. They acknowledge your complaint within 48 hours and resolve it within one month of receiving it.',
    [who ? `- ${who}` : '', g.phone ? `- Phone: ${g.phone}` : '', g.email ? `- Email: ${g.email}` : '']
      .filter(Boolean)
      .join('\n'),
  ];
}

function contactSection(p: ShopProfile): string[] {
  const care = careLines(p);
  return [
    '## Contact us',
    care.length ? `Our customer care:\n${care.join('\n')}` : 'Write to us with the form on our Contact page.',
    ...grievanceSection(p),
  ];
}

function shipping(f: PolicyFacts): string {
  const out: string[] = [];
  const areas = f.areas;
  if (!areas) out.push(`${DELIVERY_BY_PINCODE}: the checkout tells you both for yours.`);
  else if (areas.length === 0) out.push(`${deliveryAreasText(areas)}.`);
  else {
    out.push(
      'We deliver to the pincodes of the towns below, on the date and in the delivery slot you choose at checkout. The checkout tells you at once whether we deliver to your pincode.',
      '## Where we deliver and what it costs',
      areaCities(areas)
        .map((c) => {
          const charge =
            c.maxCharge === 0
              ? 'no delivery charge'
              : c.minCharge === c.maxCharge
                ? formatRupees(c.minCharge)
                : `${formatRupees(c.minCharge)}-${formatRupees(c.maxCharge)}, by pincode`;
          return `- ${c.city}, ${c.state}: ${charge}`;
        })
        .join('\n'),
    );
    const later = areas.filter((a) => !a.sameDay);
    out.push(
      later.length === 0
        ? 'Every pincode we deliver to can have its order the same day, before the slot’s cut-off.'
        : later.length === areas.length
          ? 'We do not deliver on the day of the order: the earliest delivery is the next day.'
          : `Same-day delivery is offered in ${citiesText(areas.filter((a) => a.sameDay))}; elsewhere the earliest delivery is the next day. The checkout offers only the dates your pincode can have.`,
    );
  }
  const slots = f.slots ? sortSlots(f.slots.filter((s) => !s.retired)) : undefined;
  if (slots?.length) {
    out.push(
      '## Delivery slots',
      'Choose a slot at checkout. A slot can be booked until its cut-off:',
      slots.map((s) => `- ${slotPolicyLine(s)}`).join('\n'),
    );
    if (areas?.some((a) => a.slotIDs !== null))
      out.push('Some pincodes get only some of these slots: the checkout shows the ones yours gets.');
    out.push(
      'A slot’s charge is added to your pincode’s delivery charge; the checkout shows both before you pay. A slot can fill up, and on days the shop is closed no slot is offered.',
    );
  }
  out.push(
    '## Photo cakes',
    f.noticeDays === 0
      ? 'A cake with your photo printed on it can be delivered the same day.'
      : `A cake with your photo printed on it needs ${days(f.noticeDays)} of notice: order it at least ${days(f.noticeDays)} before the delivery date.`,
  );
  out.push(
    '## If something is wrong',
    `If your order is late or arrives damaged, ${askUs(f.profile)} with your order number, so we can put it right.`,
  );
  return [...out, ...contactSection(f.profile)].join('\n\n');
}

function payingWords(online: boolean | undefined): string {
  if (online === false) return 'You pay for your order in cash when it is delivered (Cash on Delivery).';
  if (online === undefined)
    return 'You pay in cash when your order is delivered (Cash on Delivery), or online where the checkout offers it.';
  return `You pay in cash when your order is delivered (Cash on Delivery), or online when you order, through Razorpay: ${list(onlineMethodsShown(CHECKOUT_DISPLAY))}. Your card, UPI and bank details go to Razorpay, never to us.`;
}

function cancellation(f: PolicyFacts): string {
  const out = [
    '## Cancelling an order',
    cancelMessages.policy(f.cancelHours, f.online),
    `After that, ask us and we cancel it for you if we still can: ${askUs(f.profile)}, with your order number (it is on the order’s page and in its mail).`,
    'We can cancel an order until it is out for delivery. Ask as early as you can: cakes and flowers are made for your order.',
    'We charge no cancellation fee.',
    '## Refunds',
  ];
  if (f.online === false)
    out.push('Orders are paid in cash on delivery, so a cancelled order has nothing to refund.');
  else {
    out.push(
      [
        `${f.online ? 'When we cancel an order you paid online' : 'If you paid online and we cancel your order'}, we refund everything you paid, to the account or card you paid from. We start the refund as soon as the order is cancelled; it reaches your account in 5-7 working days.`,
        'If your payment arrived but the order could not be placed (the slot filled up, for example), the full amount is refunded at once, and we tell you by mail.',
        'If part of your order was missing or not as described, tell us: where we agree, we refund that part of your online payment, and the order’s page shows the refund.',
        'An order paid in cash on delivery has nothing to refund when it is cancelled.',
      ].join('\n\n'),
    );
  }
  return [...out, ...contactSection(f.profile)].join('\n\n');
}

function privacy(f: PolicyFacts): string {
  const p = f.profile;
  const who = p.legalName || p.name;
  const write = p.care.email ? `write to ${p.care.email}` : askUs(p);
  const paidOnline =
    f.online === false
      ? ''
      : ' Card, UPI and bank details go to the payment provider (Razorpay), never to us.';
  return [
    `${who} keeps only what it needs to bake, pack and deliver your order and to let you follow it. We never sell your details or share them for advertising. Questions, a copy of what we hold about you, or a correction or deletion: ${write}.`,
    '## Your account',
    `**What:** your name, email address, phone number and, if you add them, your address and the recipients you save. Your password is stored only as a one-way hash that nobody can read back; the one-time codes we email you are kept the same way and stop working after ${CODE_MINUTES} minutes.`,
    '**Why:** to sign you in, fill in your orders and reach you about them.',
    '**How long:** as long as you have an account. Write to us and we close it; your orders stay as described below.',
    '## Your orders',
    `**What:** what you ordered, the delivery date and slot, the name, phone and address it goes to, the message on a cake or card, how you paid and the payment’s reference.${paidOnline}`,
    '**Why:** to make and deliver the order, to answer questions about it, and because the law requires a shop to keep its sales records.',
    '**How long:** for as long as the law requires us to keep sales records.',
    '## Photos for photo cakes',
    '**What:** the photo you choose for a photo cake. We remove the information a phone stores inside a photo (such as where it was taken) when it is uploaded. Only you and the shop’s staff can see it.',
    '**Why:** to print it on your cake.',
    `**How long:** a photo that is not part of an order is deleted ${UNORDERED_PHOTO_DAYS} days after you add it. A photo on an order is kept with that order, so we can reprint it or answer a question about the cake.`,
    '## Order updates on your devices',
    '**What:** if you turn on order updates, the address your browser gives us for sending notifications to this device, linked to your account.',
    '**Why:** to tell you when your order’s status changes, for example when it is on its way.',
    '**How long:** until you turn order updates off, log out on that device, or your browser tells us the address no longer works.',
    '## Messages and our mailing list',
    'A message from the contact form comes to our inbox with your email address, so we can answer it. If you subscribe to our mails, we keep your email address from when you confirm it until you unsubscribe with the link in any of our mails.',
    '## On your phone or computer',
    'The shop keeps its catalogue, your cart and, while you are signed in, your orders and saved recipients in this browser, so it works without a connection. Logging out removes your account’s details from the device; an order still waiting to be sent stays there, hidden, until you sign in again and it is sent.',
    ...grievanceSection(p),
  ].join('\n\n');
}

function terms(f: PolicyFacts): string {
  const p = f.profile;
  const who =
    p.legalName && p.legalName !== p.name
      ? `${p.name} is run by ${p.legalName}.`
      : `${p.name} runs this shop.`;
  const facts = [
    ...p.stores.map((s) => `- ${s.name}: ${storeAddress(s)}`),
    p.fssai ? `- ${fssaiLine(p.fssai)}` : '',
    p.gstin ? `- GSTIN: ${p.gstin}` : '',
  ].filter(Boolean);
  return [
    `These terms apply when you order from ${p.name}. ${who}`,
    ...(facts.length ? [facts.join('\n')] : []),
    '## Your order',
    'Prices are in Indian rupees. The checkout shows the whole amount before you order: the products, the delivery charge of your pincode and the slot’s charge, less any coupon. The shop confirms your order, and its page shows each step until it is delivered.',
    'Our cakes and bouquets are made by hand for each order, so one may look a little different from its picture.',
    '## Paying',
    payingWords(f.online),
    '## Delivery, cancellation and refunds',
    'Where and when we deliver, and what it costs: see our Shipping and delivery policy. How to cancel an order and how refunds work: see our Cancellation and refunds policy. We charge no cancellation fee.',
    '## Your details',
    'What we keep about you, why and for how long: see our Privacy policy.',
    '## The law',
    'These terms are governed by the laws of India, including the Consumer Protection Act, 2019 and the Consumer Protection (E-Commerce) Rules, 2020.',
    ...contactSection(p),
  ].join('\n\n');
}

/** Each policy's default text, in the policies' own format (`domain/policy-text.ts`), written from the shop's facts. */
export function policyDefaults(facts: PolicyFacts): Record<PolicyKey, string> {
  return {
    shipping: shipping(facts),
    cancellation: cancellation(facts),
    privacy: privacy(facts),
    terms: terms(facts),
  };
}

/** What a policy page shows: the owner's text when written, else the default. */
export function policyText(key: PolicyKey, written: Policies, facts: PolicyFacts): string {
  const own = written[key];
  return own?.trim() ? own : policyDefaults(facts)[key];
}
