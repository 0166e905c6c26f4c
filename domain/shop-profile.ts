/**
 * The shop's profile: who the shop is and how it is reached, as its owner writes it on Settings →
 * Shop profile. One setting of the registry (`profile` in `domain/settings.ts`), so it is read
 * fresh by every process and reaches phones in the catalogue feed like any device setting. Every
 * place the shop speaks (header, footer, About us, Contact, policies, page heads, mails, the slip,
 * the manifest, the order page) reads this one value. An empty text is a detail the shop does not
 * have: it shows nothing, never an empty label.
 *
 * The law behind the fields: the Consumer Protection (E-Commerce) Rules, 2020 (legal name, every
 * store's address, customer care, a grievance officer) and FSSAI (the 14-digit licence or
 * registration number on the site and on every bill).
 */
import * as v from 'valibot';
import { DEFAULT_SHOP_NAME } from './shop-name.js';

export const profileMessages = {
  name: 'The shop’s name is 1 to 60 characters.',
  shortName: 'The short name is 1 to 12 characters (it goes under the app’s icon).',
  tagline: 'The tagline is at most 100 characters.',
  text: (what: string, max: number) => `${what} is at most ${max} characters.`,
  phone: 'Enter a phone number of 10 to 12 digits, for example +91 172 400 1234.',
  whatsapp: 'Enter the WhatsApp number as a 10-digit Indian mobile number.',
  email: 'Enter an email address like name@example.com.',
  pin: 'A PIN code is 6 digits and does not start with 0.',
  url: 'Enter a full address starting with https://.',
  fssai: 'The FSSAI number is 14 digits, starting with 1 (licence) or 2 (registration).',
  gstin: 'This GSTIN is not valid: 15 characters, its last a check character that does not match.',
  gstinShape: 'A GSTIN is 15 characters: 2 digits of the state, the 10 of the PAN, then 3 more.',
  stores: 'List at most 20 stores.',
  storeName: 'Each store needs a name.',
  storeAddress: 'Each store needs its address.',
  logo: 'The logo is one of the shop’s uploaded pictures.',
} as const;

// ------------------------------------------------------------------ FSSAI and GSTIN

/** FSSAI's 14 digits: a licence starts with 1, a registration (a petty food business) with 2. */
export const FSSAI_PATTERN = /^[12]\d{13}$/;
export function isFssaiNumber(text: string): boolean {
  return FSSAI_PATTERN.test(text);
}

const GSTIN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** A GSTIN's shape: state (2 digits), PAN (5 letters, 4 digits, a letter), entity, Z, check. */
export const GSTIN_SHAPE = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/**
 * The GSTIN's 15th character from its first 14: GSTN's mod-36 check. Each character's value (0-9,
 * then A-Z as 10-35) is weighted 1, 2, 1, 2...; each product adds its quotient and remainder by 36.
 */
export function gstinCheckChar(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = GSTIN_CHARS.indexOf(first14[i] ?? '') * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return GSTIN_CHARS[(36 - (sum % 36)) % 36] ?? '';
}

export function gstinProblem(text: string): string | null {
  if (!GSTIN_SHAPE.test(text)) return profileMessages.gstinShape;
  return gstinCheckChar(text.slice(0, 14)) === text[14] ? null : profileMessages.gstin;
}

// ------------------------------------------------------------------ the fields

const trimmed = v.pipe(v.string(), v.trim());
/** A line of text up to `max` characters; empty means the shop has none. */
const Text = (what: string, max: number) =>
  v.pipe(
    v.string(profileMessages.text(what, max)),
    v.trim(),
    v.maxLength(max, profileMessages.text(what, max)),
  );
const Optional = <S extends v.GenericSchema<string, string>>(schema: S) =>
  v.union([v.pipe(trimmed, v.length(0)), schema], (issue) => issue.issues?.at(-1)?.message ?? issue.message);

/** A phone as people write it: digits with spaces, hyphens or a leading +; 10 to 12 digits. */
const Phone = v.pipe(
  trimmed,
  v.regex(/^\+?[\d\s-]+$/, profileMessages.phone),
  v.check((t) => {
    const n = t.replace(/\D/g, '').length;
    return n >= 10 && n <= 12;
  }, profileMessages.phone),
);
const Whatsapp = v.pipe(
  trimmed,
  v.transform((t) => t.replace(/[\s-]/g, '').replace(/^(?:\+91|0)(?=\d{10}$)/, '')),
  v.regex(/^[6-9]\d{9}$/, profileMessages.whatsapp),
);
const Email = v.pipe(trimmed, v.maxLength(120, profileMessages.email), v.email(profileMessages.email));
const Https = v.pipe(
  trimmed,
  v.maxLength(300, profileMessages.url),
  v.check((t) => {
    try {
      return new URL(t).protocol === 'https:';
    } catch {
      return false;
    }
  }, profileMessages.url),
);

export const StoreSchema = v.object({
  name: v.pipe(Text('A store’s name', 60), v.minLength(1, profileMessages.storeName)),
  address: v.pipe(Text('A store’s address', 200), v.minLength(1, profileMessages.storeAddress)),
  pin: Optional(v.pipe(trimmed, v.regex(/^[1-9]\d{5}$/, profileMessages.pin))),
  phone: Optional(Phone),
  hours: Text('A store’s hours', 80),
  mapUrl: Optional(Https),
});
export type Store = v.InferOutput<typeof StoreSchema>;

export const SOCIAL_NETWORKS = [
  { id: 'instagram', name: 'Instagram' },
  { id: 'facebook', name: 'Facebook' },
  { id: 'youtube', name: 'YouTube' },
] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number]['id'];

/** The logo as the image pipeline keeps it (`api/images`): its stem and the widths made of it. */
export const LogoSchema = v.nullable(
  v.object({
    stem: v.pipe(v.string(profileMessages.logo), v.regex(/^[a-z0-9-]{6,80}$/, profileMessages.logo)),
    version: v.pipe(v.number(profileMessages.logo), v.integer(profileMessages.logo)),
  }),
);
export type Logo = v.InferOutput<typeof LogoSchema>;

export const ShopProfileSchema = v.object({
  name: v.pipe(
    v.string(profileMessages.name),
    v.trim(),
    v.minLength(1, profileMessages.name),
    v.maxLength(60, profileMessages.name),
  ),
  shortName: v.pipe(
    v.string(profileMessages.shortName),
    v.trim(),
    v.minLength(1, profileMessages.shortName),
    v.maxLength(12, profileMessages.shortName),
  ),
  tagline: v.pipe(v.string(profileMessages.tagline), v.trim(), v.maxLength(100, profileMessages.tagline)),
  /** The shop says everything it bakes is eggless: its cakes' pages say "100% eggless". */
  eggless: v.boolean(),
  /** About us: the shop's story in the owner's words, paragraphs split by a blank line. */
  story: Text('The story', 2000),
  logo: LogoSchema,
  care: v.object({
    phone: Optional(Phone),
    whatsapp: Optional(Whatsapp),
    email: Optional(Email),
    hours: Text('Customer care’s hours', 80),
  }),
  stores: v.pipe(v.array(StoreSchema, profileMessages.stores), v.maxLength(20, profileMessages.stores)),
  social: v.object({
    instagram: Optional(Https),
    facebook: Optional(Https),
    youtube: Optional(Https),
  }),
  legalName: Text('The legal name', 120),
  fssai: Optional(v.pipe(trimmed, v.regex(FSSAI_PATTERN, profileMessages.fssai))),
  gstin: Optional(
    v.pipe(
      trimmed,
      v.toUpperCase(),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        const problem = gstinProblem(dataset.value);
        if (problem) addIssue({ message: problem });
      }),
    ),
  ),
  grievance: v.object({
    name: Text('The grievance officer’s name', 80),
    designation: Text('The grievance officer’s designation', 80),
    phone: Optional(Phone),
    email: Optional(Email),
  }),
});
export type ShopProfile = v.InferOutput<typeof ShopProfileSchema>;

/**
 * A shop that never wrote its profile: a name and nothing else, so no stranger's phone, address or
 * licence is ever shown. The demo catalogue writes `DEMO_PROFILE` (api/seed) when it loads.
 */
export const DEFAULT_PROFILE: ShopProfile = {
  name: DEFAULT_SHOP_NAME,
  shortName: 'Bakery',
  tagline: '',
  eggless: false,
  story: '',
  logo: null,
  care: { phone: '', whatsapp: '', email: '', hours: '' },
  stores: [],
  social: { instagram: '', facebook: '', youtube: '' },
  legalName: '',
  fssai: '',
  gstin: '',
  grievance: { name: '', designation: '', phone: '', email: '' },
};

/** The demo shop's profile: what `npm start` shows until the owner writes their own. */
export const DEMO_PROFILE: ShopProfile = {
  ...DEFAULT_PROFILE,
  name: 'Bakery & Blooms',
  shortName: 'Bakery',
  tagline: 'Eggless since 2015',
  eggless: true,
  story:
    'Bakery & Blooms began in 2015 as a small eggless bakery in Chandigarh. Our cakes won over the neighbourhood, flowers followed, and today we run 2 stores, in Chandigarh and Mohali.\n\nEverything we bake is eggless and made on the day it is delivered.',
  care: {
    phone: '+91 98765 43210',
    whatsapp: '',
    email: 'hello@bakeryandblooms.in',
    hours: '9 AM to 9 PM, every day',
  },
  stores: [
    {
      name: 'Sector 17, Chandigarh',
      address: 'SCO 42, Sector 17-C, Chandigarh',
      pin: '160017',
      phone: '',
      hours: '9 AM to 9 PM, every day',
      mapUrl: 'https://www.openstreetmap.org/?mlat=30.7398&mlon=76.7827#map=16/30.7398/76.7827',
    },
    {
      name: 'Phase 7, Mohali',
      address: 'SCF 55, Phase 7, Mohali, Punjab',
      pin: '160062',
      phone: '',
      hours: '9 AM to 9 PM, every day',
      mapUrl: 'https://www.openstreetmap.org/?mlat=30.7121&mlon=76.7199#map=16/30.7121/76.7199',
    },
  ],
};

// ------------------------------------------------------------------ reading it

/** The story's paragraphs (a blank line between two). */
export function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** "tel:" and "https://wa.me/" addresses from a phone as the owner wrote it. */
export function telHref(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, '');
  return `tel:${digits}`;
}
export function whatsappHref(mobile: string): string {
  return `https://wa.me/91${mobile}`;
}

/** The social profiles the shop has, in the networks' order. */
export function socialLinks(
  profile: Pick<ShopProfile, 'social'>,
): { id: SocialNetwork; name: string; url: string }[] {
  return SOCIAL_NETWORKS.flatMap(({ id, name }) =>
    profile.social[id] ? [{ id, name, url: profile.social[id] }] : [],
  );
}

/**
 * Where a store's map link puts it, for the contact page's embedded map: OpenStreetMap's
 * `mlat`/`mlon` or `#map=z/lat/lon`, Google Maps' `@lat,lon` or `q=lat,lon`. Null for a link
 * that names no coordinates (the link is still shown).
 */
export function storeCoordinates(mapUrl: string): { lat: number; lon: number } | null {
  const pairs = [
    /[?&]mlat=(-?\d+(?:\.\d+)?)&mlon=(-?\d+(?:\.\d+)?)/,
    /#map=\d+\/(-?\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)/,
    /@(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)/,
    /[?&](?:q|query|ll)=(-?\d+(?:\.\d+)?),\s*(-?\d+(?:\.\d+)?)/,
  ];
  for (const re of pairs) {
    const m = re.exec(mapUrl);
    if (!m) continue;
    const lat = Number(m[1]);
    const lon = Number(m[2]);
    if (Math.abs(lat) <= 90 && Math.abs(lon) <= 180) return { lat, lon };
  }
  return null;
}

/** A store's one-line address with its PIN ("SCF 55, Phase 7, Mohali, Punjab 160062"). */
export function storeAddress(store: Pick<Store, 'address' | 'pin'>): string {
  return store.pin ? `${store.address} ${store.pin}` : store.address;
}

/** "FSSAI Lic. No. 1..." for a licence, "FSSAI Reg. No. 2..." for a registration: as bills print it. */
export function fssaiLine(fssai: string): string {
  if (!fssai) return '';
  return `FSSAI ${fssai.startsWith('2') ? 'Reg.' : 'Lic.'} No. ${fssai}`;
}

// ------------------------------------------------------------------ the logo's pictures

/**
 * The widths the image pipeline (`api/images`) makes of an upload, by the logo's `version`: version
 * 1 is the pipeline's 320 and 640 px WebP. A header or footer logo is drawn at most about 100 CSS
 * px wide, so 320 covers it on a 3x screen; 640 is the source for anything larger (the manifest's
 * 512 px icon). A later pipeline with other widths gives its logos a new version, and this table
 * keeps every older logo's own widths, so a URL made here is always a file the media routes serve.
 */
export const LOGO_WIDTHS: Readonly<Record<number, readonly number[]>> = { 1: [320, 640] };
/** The version a logo uploaded now gets. */
export const LOGO_VERSION = 1;

/**
 * The address `/media/` serves for the logo drawn `width` px wide (device pixels): the smallest
 * width made that is at least that, or the largest made. One rule for every place that shows it.
 * No logo is '' (a detail the shop does not have shows nothing).
 */
export function logoUrl(logo: Logo, width: number): string {
  if (!logo) return '';
  const widths = LOGO_WIDTHS[logo.version] ?? LOGO_WIDTHS[LOGO_VERSION] ?? [];
  const made = widths.find((w) => w >= width) ?? widths[widths.length - 1];
  return `/media/${logo.stem}-${made}.webp`;
}
