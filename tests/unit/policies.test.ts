import { describe, expect, it } from 'vitest';
import type { DeliveryArea } from '../../domain/delivery-areas.js';
import { cutoffWords, type PolicyFacts, policyDefaults, policyText } from '../../domain/policy-defaults.js';
import { policyBlocks, renderPolicy } from '../../domain/policy-text.js';
import { CODE_MINUTES, UNORDERED_PHOTO_DAYS } from '../../domain/privacy.js';
import { DEFAULT_PROFILE, type ShopProfile } from '../../domain/shop-profile.js';
import { type DeliverySlot, STANDARD_SLOT } from '../../domain/slots.js';

const area = (pincode: string, city: string, charge: number, sameDay = true): DeliveryArea => ({
  pincode,
  city,
  state: 'Punjab',
  charge,
  slotIDs: null,
  sameDay,
});
const standard: DeliverySlot = {
  ...STANDARD_SLOT,
  weekdays: [...STANDARD_SLOT.weekdays],
  isDefault: true,
  retired: false,
};
const midnight: DeliverySlot = {
  ...standard,
  slotID: 6,
  name: 'Midnight',
  start: 23 * 60,
  end: 24 * 60,
  surcharge: 250,
  cutoff: -3 * 60,
  isDefault: false,
  position: 5,
};
const profile = (p: Partial<ShopProfile> = {}): ShopProfile => ({ ...DEFAULT_PROFILE, ...p });
const facts = (f: Partial<PolicyFacts> = {}): PolicyFacts => ({
  profile: profile({ care: { phone: '+91 172 400 1234', whatsapp: '', email: 'care@shop.in', hours: '' } }),
  areas: [area('160062', 'Mohali', 150), area('140301', 'Kharar', 300, false)],
  slots: [standard, midnight],
  noticeDays: 2,
  online: true,
  cancelHours: 6,
  ...f,
});

describe('policy defaults, written from the shop’s settings', () => {
  it('names each area’s charge, and where same-day delivery is offered', () => {
    const text = policyDefaults(facts()).shipping;
    expect(text).toContain('- Mohali, Punjab: ₹150');
    expect(text).toContain('- Kharar, Punjab: ₹300');
    expect(text).toContain(
      'Same-day delivery is offered in Mohali; elsewhere the earliest delivery is the next day.',
    );
    const changed = policyDefaults(facts({ areas: [area('160062', 'Mohali', 175)] })).shipping;
    expect(changed).toContain('- Mohali, Punjab: ₹175');
    expect(changed).not.toContain('Kharar');
  });

  it('says a shop with no areas takes no delivery orders, and a device without them promises nothing', () => {
    expect(policyDefaults(facts({ areas: [] })).shipping).toContain('We are not taking delivery orders yet.');
    const unknown = policyDefaults(facts({ areas: undefined })).shipping;
    expect(unknown).toContain('Delivery dates and charges depend on your pincode');
    expect(unknown).not.toContain('Mohali');
  });

  it('gives each slot its window, charge and cut-off; a retired slot is not offered', () => {
    const text = policyDefaults(facts()).shipping;
    expect(text).toContain('- Standard, 10 AM – 9 PM, no extra charge: order by 6 PM on the day.');
    expect(text).toContain('- Midnight, 11 PM – 12 AM, ₹250: order by 9 PM the day before.');
    expect(
      policyDefaults(facts({ slots: [standard, { ...midnight, retired: true }] })).shipping,
    ).not.toContain('Midnight');
    expect(cutoffWords(-2 * 24 * 60 + 18 * 60)).toBe('order by 6 PM 2 days before');
  });

  it('gives the photo cake’s notice in days', () => {
    expect(policyDefaults(facts()).shipping).toContain('needs 2 days of notice');
    expect(policyDefaults(facts({ noticeDays: 1 })).shipping).toContain('needs 1 day of notice');
    expect(policyDefaults(facts({ noticeDays: 0 })).shipping).toContain('can be delivered the same day');
  });

  it('says nothing of paying online when the shop takes no online payment', () => {
    const all = Object.values(policyDefaults(facts({ online: false }))).join('\n');
    expect(all).not.toMatch(/online|Razorpay|UPI/i);
    expect(all).toContain('Cash on Delivery');
    expect(all).toContain('nothing to refund');
    const online = policyDefaults(facts());
    expect(online.terms).toContain('through Razorpay: UPI (app or QR), Cards and Net banking');
    expect(online.cancellation).toContain('we refund everything you paid');
  });

  it('charges no cancellation fee, says the shopper’s own cancel with the shop’s hours, and how to ask after', () => {
    const text = policyDefaults(facts()).cancellation;
    expect(text).toContain('We charge no cancellation fee.');
    expect(text).toContain(
      'Cancel from your order page until 6 hours before your delivery slot, or within 15 minutes of ordering; what you paid online comes back in full.',
    );
    expect(policyDefaults(facts({ cancelHours: 24 })).cancellation).toContain('until 24 hours before');
    expect(text).toContain('write to care@shop.in or call +91 172 400 1234');
  });

  it('names the grievance officer and the law’s times only when the shop has one', () => {
    const withOfficer = facts({
      profile: profile({
        grievance: {
          name: 'Asha Verma',
          designation: 'Grievance officer',
          phone: '',
          email: 'grievance@shop.in',
        },
      }),
    });
    for (const text of Object.values(policyDefaults(withOfficer))) {
      expect(text).toContain('- Asha Verma, Grievance officer');
      expect(text).toContain('- Email: grievance@shop.in');
      expect(text).toContain('acknowledge your complaint within 48 hours and resolve it within one month');
      expect(text).not.toContain('Phone: \n');
    }
    const none = Object.values(policyDefaults(facts())).join('\n');
    expect(none).not.toContain('Grievance officer');
    expect(none).not.toMatch(/^- [^:\n]*: *$/m);
  });

  it('leaves out what the shop does not have, never an empty label', () => {
    const bare = Object.values(policyDefaults(facts({ profile: profile() }))).join('\n');
    expect(bare).not.toMatch(/(Phone|Email|WhatsApp|Hours|GSTIN|FSSAI)[^\n]*: *$/m);
    expect(bare).toContain('write to us with the form on our Contact page');
  });

  it('keeps what the privacy page promised, with the server’s own figures', () => {
    const text = policyDefaults(facts()).privacy;
    expect(text).toContain(`deleted ${UNORDERED_PHOTO_DAYS} days after you add it`);
    expect(text).toContain(`stop working after ${CODE_MINUTES} minutes`);
    expect(text).toContain('We never sell your details');
    expect(text).toContain('write to care@shop.in');
    expect(policyBlocks(text).filter((b) => b.kind === 'heading')).toHaveLength(6);
  });

  it('reads the owner’s text where written, else the default', () => {
    expect(policyText('terms', { terms: 'Our own terms.' }, facts())).toBe('Our own terms.');
    expect(policyText('terms', { terms: '  ' }, facts())).toBe(policyDefaults(facts()).terms);
    expect(policyText('shipping', { terms: 'x' }, facts())).toBe(policyDefaults(facts()).shipping);
  });
});

describe('the policy text renderer', () => {
  it('escapes everything the owner writes', () => {
    const html = renderPolicy('<script>alert(1)</script> & <img src=x onerror="alert(1)">');
    expect(html).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img src=x onerror=&quot;alert(1)&quot;&gt;</p>',
    );
  });

  it('makes paragraphs, line breaks, lists, headings and bold', () => {
    expect(renderPolicy('## Where\n\nOne\ntwo\n\n- a **b**\n- c\n  more\n\nEnd')).toBe(
      '<h2>Where</h2>\n<p>One<br>two</p>\n<ul><li>a <strong>b</strong></li><li>c more</li></ul>\n<p>End</p>',
    );
  });

  it('links https addresses and email addresses, and nothing else', () => {
    expect(renderPolicy('See https://example.com/a?b=1&c=2. Or mail care@shop.in.')).toBe(
      '<p>See <a href="https://example.com/a?b=1&amp;c=2">https://example.com/a?b=1&amp;c=2</a>. Or mail <a href="mailto:care@shop.in">care@shop.in</a>.</p>',
    );
    const html = renderPolicy('javascript:alert(1) http://plain.example "https://x.in/"onclick="a"');
    expect(html).not.toContain('href="javascript');
    expect(html).not.toContain('href="http:');
    expect(html).not.toMatch(/<a [^>]*onclick/);
    expect(html).toContain('<a href="https://x.in/">https://x.in/</a>');
  });

  it('keeps a link whole inside bold, and a bold marker inside a link', () => {
    expect(renderPolicy('**Write to care@shop.in**')).toBe(
      '<p><strong>Write to <a href="mailto:care@shop.in">care@shop.in</a></strong></p>',
    );
    expect(renderPolicy('https://x.in/**a**')).toBe(
      '<p><a href="https://x.in/**a">https://x.in/**a</a>**</p>',
    );
  });
});
