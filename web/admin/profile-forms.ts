/**
 * Settings → Shop profile without its screen: the words it says (each field's label and help: what
 * it is and where it shows), the draft the form edits, the check before sending (the profile's own
 * schema, domain/shop-profile.ts, so the owner sees every problem at its field first) and where a
 * server's refusal belongs. Pure, so the web tests and the browser test read the screen's words.
 */
import * as v from 'valibot';
import { LIMITS } from '../../domain/catalogue.js';
import { type ShopProfile, ShopProfileSchema, type Store } from '../../domain/shop-profile.js';
import { ApiError } from '../api/client.js';

export const MAX_STORES = 20;
const imageMb = LIMITS.imageBytes / 1024 / 1024;

export const profileTexts = {
  title: 'Shop profile',
  save: 'Save profile',
  saved: 'Shop profile saved.',
  nothingChanged: 'Nothing has changed: there is nothing to save.',
  identity: 'Identity',
  care: 'Customer care',
  stores: 'Stores',
  social: 'Social profiles',
  legal: 'Licences and legal',
  grievance: 'Grievance officer',
  storesHelp:
    'Every shop where customers can come, as the E-Commerce Rules ask: each is listed on Contact and About us and in the footer, with its map. None lists no address.',
  noStores: 'No stores listed.',
  store: (n: number) => `Store ${n}`,
  addStore: 'Add a store',
  removeStore: (n: number) => `Remove store ${n}`,
  moveStoreUp: (n: number) => `Move store ${n} up`,
  moveStoreDown: (n: number) => `Move store ${n} down`,
  logo: 'Logo',
  logoHelp: `A square picture (JPEG, PNG, WebP, AVIF or GIF, at most ${imageMb} MB; 640 px or more across stays sharp). Shown in the footer and on About us, and as the installed app’s icon. It becomes the shop’s logo when you save the profile.`,
  chooseLogo: 'Choose a logo picture',
  logoPreview: (name: string) => `The logo of ${name || 'the shop'}`,
  noLogo: 'No logo: the header shows the shop’s name.',
  removeLogo: 'Remove logo',
  uploading: 'Uploading the logo…',
  logoUnsaved: 'New logo: save the profile to use it.',
} as const;

/** One field of the form: where it sits in the profile, its label and help, how it is typed. */
export interface FieldSpec {
  /** Its path in the profile, as the schema's issues and the server's `data.field` name it. */
  path: string;
  label: string;
  help: string;
  type?: 'text' | 'tel' | 'email' | 'url' | 'textarea' | 'checkbox';
  autoComplete?: string;
  inputMode?: 'numeric' | 'text';
}

const link = (network: string) =>
  `The full address of the shop’s ${network} page, starting https://. Shown as a link in the footer and on Contact; empty shows none.`;

/** The fieldsets in the screen's (and the schema's) order; the stores and the logo have their own parts. */
export const PROFILE_GROUPS: { legend: string; fields: FieldSpec[] }[] = [
  {
    legend: profileTexts.identity,
    fields: [
      {
        path: 'name',
        label: 'Shop name',
        help: 'Up to 60 characters. Shown in the header and footer, page titles and link previews, mails, the packing slip and the installed app.',
        autoComplete: 'organization',
      },
      {
        path: 'shortName',
        label: 'Short name',
        help: 'The app’s name under its icon on a phone’s home screen: at most 12 characters.',
      },
      {
        path: 'tagline',
        label: 'Tagline',
        help: 'One line about the shop, at most 100 characters, shown with its name (footer, About us). Empty shows nothing.',
      },
      {
        path: 'story',
        label: 'Your story',
        help: 'About us tells it: how the shop began and what it makes, at most 2,000 characters; a blank line starts a new paragraph. Empty shows the name and tagline.',
        type: 'textarea',
      },
      {
        path: 'eggless',
        label: 'Everything we bake is eggless',
        help: 'Tick only if it is true of every cake: each cake’s page then says “100% eggless”.',
        type: 'checkbox',
      },
    ],
  },
  {
    legend: profileTexts.care,
    fields: [
      {
        path: 'care.phone',
        label: 'Customer care phone',
        help: '10 to 12 digits, for example +91 172 400 1234. Shown in the footer, on Contact, on every order and in mails; a tap calls it.',
        type: 'tel',
        autoComplete: 'tel',
      },
      {
        path: 'care.whatsapp',
        label: 'WhatsApp number',
        help: 'A 10-digit Indian mobile number. Shown as a WhatsApp chat link in the footer and on Contact; empty shows none.',
        type: 'tel',
      },
      {
        path: 'care.email',
        label: 'Customer care email',
        help: 'Shown in the footer, on Contact and in the shop’s mails.',
        type: 'email',
        autoComplete: 'email',
      },
      {
        path: 'care.hours',
        label: 'Customer care hours',
        help: 'When customer care answers, for example 9 AM to 9 PM, every day. Shown beside the phone.',
      },
    ],
  },
  {
    legend: profileTexts.social,
    fields: [
      { path: 'social.instagram', label: 'Instagram', help: link('Instagram'), type: 'url' },
      { path: 'social.facebook', label: 'Facebook', help: link('Facebook'), type: 'url' },
      { path: 'social.youtube', label: 'YouTube', help: link('YouTube'), type: 'url' },
    ],
  },
  {
    legend: profileTexts.legal,
    fields: [
      {
        path: 'legalName',
        label: 'Legal name',
        help: 'The business’s registered name (for example Sharma Foods Pvt. Ltd.), as the E-Commerce Rules ask. Shown in the footer, on About us and in mails.',
      },
      {
        path: 'fssai',
        label: 'FSSAI number',
        help: '14 digits, starting with 1 for a licence or 2 for a registration; printed in the footer, on every order and packing slip.',
        inputMode: 'numeric',
      },
      {
        path: 'gstin',
        label: 'GSTIN',
        help: 'Only if the shop is registered for GST: 15 characters, the last a check character that is verified. Shown with the legal name.',
      },
    ],
  },
  {
    legend: profileTexts.grievance,
    fields: [
      {
        path: 'grievance.name',
        label: 'Officer’s name',
        help: 'The person who acknowledges a complaint within 48 hours and resolves it within a month (E-Commerce Rules). Shown in the footer and on Contact.',
      },
      {
        path: 'grievance.designation',
        label: 'Officer’s designation',
        help: 'Their role, for example Proprietor or Customer care manager.',
      },
      {
        path: 'grievance.phone',
        label: 'Officer’s phone',
        help: '10 to 12 digits. Shown with their name.',
        type: 'tel',
      },
      {
        path: 'grievance.email',
        label: 'Officer’s email',
        help: 'Where complaints reach them. Shown with their name.',
        type: 'email',
      },
    ],
  },
];

/** A store's fields; each store's path is `stores.<n>.<key>`. */
export const STORE_FIELDS: (Omit<FieldSpec, 'path'> & { key: keyof Store })[] = [
  { key: 'name', label: 'Store name', help: 'As customers know it, for example Sector 17, Chandigarh.' },
  {
    key: 'address',
    label: 'Address',
    help: 'Building, street and town, up to 200 characters.',
    autoComplete: 'street-address',
  },
  {
    key: 'pin',
    label: 'PIN code',
    help: '6 digits, printed after the address.',
    inputMode: 'numeric',
    autoComplete: 'postal-code',
  },
  { key: 'phone', label: 'Store phone', help: '10 to 12 digits; empty shows none.', type: 'tel' },
  { key: 'hours', label: 'Store hours', help: 'For example 9 AM to 9 PM, every day.' },
  {
    key: 'mapUrl',
    label: 'Map link',
    help: 'A link starting https:// from OpenStreetMap or Google Maps. Contact shows a map when the link names the place’s coordinates.',
    type: 'url',
  },
];

// ------------------------------------------------------------------ the draft

/** A store as edited, with a key of its own so React keeps each store's inputs through a move. */
export type StoreDraft = Store & { key: string };
export type ProfileDraft = Omit<ShopProfile, 'stores'> & { stores: StoreDraft[] };

let storeKeys = 0;
export const EMPTY_STORE: Store = { name: '', address: '', pin: '', phone: '', hours: '', mapUrl: '' };
export function storeDraft(store: Store = EMPTY_STORE): StoreDraft {
  storeKeys += 1;
  return { ...store, key: `store-${storeKeys}` };
}

export function profileDraft(profile: ShopProfile): ProfileDraft {
  return { ...profile, stores: profile.stores.map((s) => storeDraft(s)) };
}

/** The draft as the profile it would be, the stores' keys left out. */
export function draftProfile(draft: ProfileDraft): ShopProfile {
  return { ...draft, stores: draft.stores.map(({ key: _key, ...store }) => store) };
}

/** A field's value in the draft by its path (`care.phone`, `stores.1.pin`). */
export function valueAt(draft: ProfileDraft, path: string): string {
  let at: unknown = draft;
  for (const part of path.split('.')) at = (at as Record<string, unknown> | undefined)?.[part];
  return typeof at === 'string' ? at : typeof at === 'boolean' ? String(at) : '';
}

/** The draft with one text field changed. */
export function withValue(draft: ProfileDraft, path: string, value: string): ProfileDraft {
  const [head, ...rest] = path.split('.');
  if (!head) return draft;
  if (head === 'stores') {
    const index = Number(rest[0]);
    const key = rest[1] as keyof Store;
    return {
      ...draft,
      stores: draft.stores.map((s, i) => (i === index ? { ...s, [key]: value } : s)),
    };
  }
  // The one tick box (eggless) comes as 'true' or 'false'.
  if (head === 'eggless') return { ...draft, eggless: value === 'true' };
  if (rest.length === 0) return { ...draft, [head]: value };
  const group = draft[head as 'care' | 'social' | 'grievance'];
  return { ...draft, [head]: { ...group, [rest[0] as string]: value } };
}

// ------------------------------------------------------------------ the check, and refusals

export type ProfileProblems = Record<string, string>;

/** Every path the screen shows a problem at, for a draft with `stores` stores. */
function knownPaths(stores: number): Set<string> {
  const paths = new Set(['logo', 'stores', ...PROFILE_GROUPS.flatMap((g) => g.fields.map((f) => f.path))]);
  for (let i = 0; i < stores; i++) for (const f of STORE_FIELDS) paths.add(`stores.${i}.${f.key}`);
  return paths;
}

/**
 * Where a path's problem shows: the field itself, or the nearest part of the form that holds it
 * (`logo.stem` at the logo, a list's problem at the stores); null for a path the form has not.
 */
export function fieldOfPath(path: string, stores: number): string | null {
  const known = knownPaths(stores);
  const parts = path.split('.');
  while (parts.length) {
    const at = parts.join('.');
    if (known.has(at)) return at;
    parts.pop();
  }
  return null;
}

/**
 * The profile `PUT /admin/settings {profile}` is sent, as the schema gives it (trimmed, the GSTIN in
 * capitals, the WhatsApp number as 10 digits), or each field's first problem in the screen's order.
 */
export function profileRequest(
  draft: ProfileDraft,
): { ok: true; profile: ShopProfile } | { ok: false; problems: ProfileProblems; first: string | null } {
  const parsed = v.safeParse(ShopProfileSchema, draftProfile(draft));
  if (parsed.success) return { ok: true, profile: parsed.output };
  const problems: ProfileProblems = {};
  let first: string | null = null;
  for (const issue of parsed.issues) {
    const field = fieldOfPath(issue.path?.map((p) => String(p.key)).join('.') ?? '', draft.stores.length);
    if (!field || problems[field]) continue;
    problems[field] = issue.message;
    first ??= field;
  }
  return { ok: false, problems, first };
}

/**
 * Where a failed save's message belongs: at the field the server's `data.field` names
 * (`profile.stores.1.pin` is the second store's PIN), else the form's own problem.
 */
export function profileRefusal(
  err: unknown,
  stores: number,
  fallback: string,
): { field: string | null; message: string } {
  if (!(err instanceof ApiError) || err.offline) return { field: null, message: fallback };
  const data = err.envelope?.data;
  const named =
    data && typeof data === 'object' && 'field' in data && typeof data.field === 'string' ? data.field : '';
  const path = named.replace(/^profile\.?/, '');
  return { field: path ? fieldOfPath(path, stores) : null, message: err.message };
}

/** The logo upload's form: one file in the field the endpoint reads. */
export function logoRequest(file: File): FormData {
  const form = new FormData();
  form.append('logo', file, file.name);
  return form;
}

/** The element id of a field's input, from the form's id and the field's path. */
export function fieldId(formId: string, path: string): string {
  return `${formId}-${path.replace(/\./g, '-')}`;
}
