/**
 * The Settings screens' forms without their screens: the texts they say, the delivery-area form's
 * values and its check (the rules themselves are domain/delivery-areas.ts's schemas, run here so
 * the owner sees every problem at its field before anything is sent), the settings form's kinds and
 * its patch of only the changed keys, and where a server's refusal belongs in a form. Pure, so the
 * web tests and the browser test read the same words the screens show.
 */
import * as v from 'valibot';
import {
  AreaInputSchema,
  areaMessages,
  type DeliveryArea,
  PincodeParamsSchema,
} from '../../domain/delivery-areas.js';
import {
  SETTING_SECTIONS,
  SETTINGS,
  type SettingKey,
  type SettingSection,
  type SettingsPatch,
  SHOP_SCREEN_KEYS,
  type ShopSettings,
} from '../../domain/settings.js';
import { ApiError } from '../api/client.js';

export const settingsTexts = {
  areasTitle: 'Delivery areas',
  shopSettingsTitle: 'Shop settings',
  addPincode: 'Add pincode',
  saveArea: 'Save pincode',
  citiesHeading: 'Cities delivered',
  pincodesHeading: 'Pincodes',
  pasteHeading: 'Paste pincodes',
  pasteHelp:
    'One pincode a line: pincode,city,state,charge (for example 160062,Mohali,Punjab,150). A pincode already in the list takes the line’s city, state and charge and keeps its slots and same-day choice.',
  pasteButton: 'Add pasted pincodes',
  filterLabel: 'Filter by pincode, city or state',
  noAreas: 'No pincodes yet: the shop takes no delivery orders until one is added.',
  noMatch: (text: string) => `No pincode matches "${text}".`,
  shown: (shown: number, total: number) =>
    shown === total ? `${total} pincodes` : `${shown} of ${total} pincodes`,
  allSlots: 'All',
  everySlot: 'Every slot',
  onlySlots: 'Only these slots',
  alreadyListed: (a: Pick<DeliveryArea, 'pincode' | 'city'>) =>
    `${a.pincode} is already delivered to (${a.city}): edit it in the list instead.`,
  removeConfirm: (a: Pick<DeliveryArea, 'pincode' | 'city'>) =>
    `Stop delivering to ${a.pincode} (${a.city})? Orders already placed keep their address; an order waiting on a phone for that pincode will ask its shopper to choose again.`,
  shoppersRead: 'Shoppers read',
  nothingChanged: 'Nothing has changed: there is nothing to save.',
  saveSettings: 'Save settings',
} as const;

// ------------------------------------------------------------------ one pincode's form

export interface AreaFormValues {
  pincode: string;
  city: string;
  state: string;
  charge: string;
  sameDay: boolean;
  /** Every slot (the area's null), or only the picked ones. */
  allSlots: boolean;
  slotIDs: number[];
}
export type AreaField = 'pincode' | 'city' | 'state' | 'charge' | 'slotIDs';
const AREA_FIELDS: readonly AreaField[] = ['pincode', 'city', 'state', 'charge', 'slotIDs'];
export type AreaProblems = Partial<Record<AreaField, string>>;

export const EMPTY_AREA: AreaFormValues = {
  pincode: '',
  city: '',
  state: '',
  charge: '',
  sameDay: true,
  allSlots: true,
  slotIDs: [],
};

export function areaValues(a: DeliveryArea): AreaFormValues {
  return {
    pincode: a.pincode,
    city: a.city,
    state: a.state,
    charge: String(a.charge),
    sameDay: a.sameDay,
    allSlots: a.slotIDs === null,
    slotIDs: a.slotIDs ?? [],
  };
}

/** A charge as typed: whole digits only, so "1e2" or "150.5" is the schema's message, not a number. */
function chargeOf(text: string): number {
  const t = text.trim().replace(/^₹/, '');
  return /^\d+$/.test(t) ? Number(t) : Number.NaN;
}

/**
 * The form as `PUT /admin/delivery-areas/{pincode}` takes it, or every field's first problem.
 * `existing` are the listed areas: adding a pincode that is already there would silently replace it.
 */
export function areaRequest(
  f: AreaFormValues,
  mode: 'add' | 'edit',
  existing: readonly DeliveryArea[],
):
  | { ok: true; pincode: string; body: v.InferInput<typeof AreaInputSchema> }
  | { ok: false; problems: AreaProblems } {
  const problems: AreaProblems = {};
  const pincode = f.pincode.trim();
  const params = v.safeParse(PincodeParamsSchema, { pincode });
  if (!params.success) problems.pincode = params.issues[0].message;
  else if (mode === 'add') {
    const listed = existing.find((a) => a.pincode === pincode);
    if (listed) problems.pincode = settingsTexts.alreadyListed(listed);
  }
  const body = {
    city: f.city,
    state: f.state,
    charge: chargeOf(f.charge),
    slotIDs: f.allSlots ? null : f.slotIDs,
    sameDay: f.sameDay,
  };
  const input = v.safeParse(AreaInputSchema, body);
  if (!input.success)
    for (const issue of input.issues) {
      const field = fieldOf(issue.path?.map((p) => String(p.key)).join('.'));
      if (field && !problems[field]) problems[field] = issue.message;
    }
  // The schema lets an area name no slot at all; the server refuses it (an area no order can reach).
  if (!f.allSlots && f.slotIDs.length === 0) problems.slotIDs ??= areaMessages.slotsNone;
  return Object.keys(problems).length ? { ok: false, problems } : { ok: true, pincode, body };
}

function fieldOf(path: string | undefined): AreaField | null {
  const head = path?.split('.')[0];
  return AREA_FIELDS.find((f) => f === head) ?? null;
}

/**
 * Where a failed call's message belongs: at the field the envelope's `data.field` names (a 400 from
 * the schemas names it: the whole path where the form has it, `off.amount`, else its head, "slotIDs.0"
 * being the slots), or, when it names none of `fields`, the form's.
 */
export function refusalOf<F extends string>(
  err: unknown,
  fields: readonly F[],
  fallback: string,
): { field: F | null; message: string } {
  if (!(err instanceof ApiError) || err.offline) return { field: null, message: fallback };
  const data = err.envelope?.data;
  const named =
    data && typeof data === 'object' && 'field' in data && typeof data.field === 'string' ? data.field : '';
  // The whole path where a form has that field (`off.amount`), else its head.
  const head = named.split('.')[0];
  return {
    field: fields.find((f) => f === named) ?? fields.find((f) => f === head) ?? null,
    message: err.message,
  };
}
/** The server's refusals of an area's slots (422s that name no field) belong at the slots. */
const SLOT_REFUSALS: readonly string[] = [areaMessages.slotUnknown, areaMessages.slotsNone];
export function areaRefusal(err: unknown, fallback: string): { field: AreaField | null; message: string } {
  const refusal = refusalOf(err, AREA_FIELDS, fallback);
  return !refusal.field && SLOT_REFUSALS.includes(refusal.message)
    ? { ...refusal, field: 'slotIDs' }
    : refusal;
}

/** The filter box: a pincode's start, or a word of its city or state, case aside. */
export function filterAreas(areas: readonly DeliveryArea[], text: string): DeliveryArea[] {
  const t = text.trim().toLowerCase();
  if (!t) return [...areas];
  return areas.filter(
    (a) => a.pincode.startsWith(t) || a.city.toLowerCase().includes(t) || a.state.toLowerCase().includes(t),
  );
}

// ------------------------------------------------------------------ the shop's settings

/**
 * How a setting is edited, read from its registry entry, so a new entry needs no screen code: a
 * picklist with its `choices` is a select, otherwise its default's type says (a number, a tick box,
 * a text).
 */
export type SettingKind = 'number' | 'boolean' | 'text' | 'choice';
export function settingKind(key: SettingKey): SettingKind {
  if (settingChoices(key)) return 'choice';
  const d: unknown = SETTINGS[key].default;
  return typeof d === 'number' ? 'number' : typeof d === 'boolean' ? 'boolean' : 'text';
}

/** A choice setting's options, as its picklist holds them, each with the words the owner reads. */
export function settingChoices(key: SettingKey): { value: string; label: string }[] | null {
  const entry: { schema: unknown; choices?: Record<string, string> } = SETTINGS[key];
  const options = (entry.schema as { options?: unknown }).options;
  if (!entry.choices || !Array.isArray(options)) return null;
  return options.map((value: string) => ({ value, label: entry.choices?.[value] ?? value }));
}

/** The Shop settings screen's fields under their headings, in the registry's order of sections. */
export function shopSections(): { section: SettingSection; title: string; keys: SettingKey[] }[] {
  return (Object.keys(SETTING_SECTIONS) as SettingSection[])
    .map((section) => ({
      section,
      title: SETTING_SECTIONS[section],
      keys: SHOP_SCREEN_KEYS.filter((k) => SETTINGS[k].section === section),
    }))
    .filter((s) => s.keys.length > 0);
}

/** The form's draft: a number and a text as typed, a boolean as ticked. */
export type SettingsDraft = Partial<Record<SettingKey, string | boolean>>;

export function settingsDraft(saved: ShopSettings): SettingsDraft {
  return Object.fromEntries(
    SHOP_SCREEN_KEYS.map((k) => {
      const value: unknown = saved[k];
      return [k, typeof value === 'boolean' ? value : String(value)];
    }),
  ) as SettingsDraft;
}

function typedValue(key: SettingKey, drafted: string | boolean): unknown {
  const kind = settingKind(key);
  if (kind === 'boolean') return drafted === true;
  if (kind === 'number') {
    const t = String(drafted).trim();
    return t === '' ? Number.NaN : Number(t);
  }
  return String(drafted);
}

/**
 * `PUT /admin/settings`'s body: only the keys whose value differs from the saved one (so an owner
 * saving one field never writes back another that changed meanwhile), each checked by its own
 * schema; or each changed field's problem.
 */
export function settingsPatch(
  draft: SettingsDraft,
  saved: ShopSettings,
): { ok: true; patch: SettingsPatch } | { ok: false; problems: Partial<Record<SettingKey, string>> } {
  const patch: Record<string, unknown> = {};
  const problems: Partial<Record<SettingKey, string>> = {};
  for (const key of SHOP_SCREEN_KEYS) {
    const value = typedValue(key, draft[key] ?? '');
    if (Object.is(value, saved[key])) continue;
    const parsed = v.safeParse(SETTINGS[key].schema, value);
    if (parsed.success) {
      if (!Object.is(parsed.output, saved[key])) patch[key] = parsed.output;
    } else problems[key] = parsed.issues[0].message;
  }
  return Object.keys(problems).length ? { ok: false, problems } : { ok: true, patch: patch as SettingsPatch };
}
