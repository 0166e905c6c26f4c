/**
 * Where the shop delivers, by pincode: the shop's own delivery areas (DESIGN.md's departure 11).
 * Each pincode names its city and state, its delivery charge, the slots it gets and whether
 * today's date is offered there. The checkout fills State and City from the pincode and the
 * server refuses one that does not match; the charge is the pincode's. The areas live in the
 * database (Settings → Delivery areas) and travel to devices with the catalogue feed, a changed
 * pincode as one row, so the product page's "Check delivery" answers offline.
 *
 * Every text that says where the shop delivers is made here from the areas, so no page can
 * promise a town the checkout refuses.
 */
import * as v from 'valibot';
import { isValidPincode } from './delivery.js';
import { formatRupees } from './money.js';

const int = v.pipe(v.number(), v.integer());

/** Longest city and state names (the order form's own limit is 60). */
export const AREA_NAME_MAX = 60;
/** Most pincodes one paste may add: a district is a few hundred. */
export const AREA_PASTE_MAX = 2000;
/**
 * Most pincodes a shop delivers to. Every device keeps every area (the offline Check delivery and
 * the checkout read them), and the public list and the catalogue feed carry them whole; 2,000 is
 * several districts (Chandigarh's tricity is 39), and keeps that list near 200 KB
 * (api/delivery-areas/README.md, "How many").
 */
export const AREA_COUNT_MAX = 2000;
/** The highest slot id an area may name: ids are whole numbers of at most 9 digits, as `IdSchema` reads them. */
const SLOT_ID_MAX = 999_999_999;
/** The highest delivery charge an area may carry, in rupees. */
export const AREA_CHARGE_MAX = 10_000;

export const DeliveryAreaSchema = v.object({
  pincode: v.string(),
  city: v.string(),
  state: v.string(),
  /** Rupees added to every order delivered to this pincode. */
  charge: int,
  /** The ids of the slots this pincode gets; null when it gets every slot of the shop. */
  slotIDs: v.nullable(v.array(int)),
  /** Whether today's date is offered here (before the slots' cut-offs); false: tomorrow at the earliest. */
  sameDay: v.boolean(),
});
export type DeliveryArea = v.InferOutput<typeof DeliveryAreaSchema>;

export const areaMessages = {
  pincodeInvalid: 'A pincode is 6 digits and does not start with 0.',
  cityRequired: 'Enter the city.',
  stateRequired: 'Enter the state.',
  nameTooLong: `At most ${AREA_NAME_MAX} characters.`,
  nameLetters: 'Letters, spaces, dots and hyphens only, starting with a letter.',
  chargeInvalid: `The charge is a whole number of rupees from 0 to ${AREA_CHARGE_MAX}.`,
  slotUnknown: 'One of the slots does not exist.',
  slotIdInvalid: 'Slots are chosen by their ids, whole numbers from 1.',
  slotsNone: 'Choose at least one slot, or leave the slots unset for all of them.',
  notFound: 'No delivery area has that pincode.',
  pasteEmpty: 'Paste at least one line of pincode,city,state,charge.',
  pasteTooLong: `At most ${AREA_PASTE_MAX} lines at a time.`,
  /** A new pincode past `AREA_COUNT_MAX` (422), by the admin's add or a paste. */
  tooMany: (live: number, adding: number) =>
    `The shop can deliver to at most ${AREA_COUNT_MAX.toLocaleString('en-IN')} pincodes: it has ${live.toLocaleString('en-IN')}, and this adds ${adding.toLocaleString('en-IN')}. Remove some first.`,
  pasteLine: (line: number, problem: string) => `Line ${line}: ${problem}`,
  pasteShape: 'Write pincode,city,state,charge.',
  /** The refusal of a paste with bad lines (each is listed in the answer's `data.errors`). */
  pasteRefused: (errors: readonly string[]) =>
    errors.length === 1
      ? `Nothing was saved. ${errors[0]}`
      : `Nothing was saved: ${errors.length} lines need fixing. ${errors[0]}`,
  /** The server's refusal of an order to a pincode outside the areas (422). */
  outside: (pincode: string) => `We don't deliver to ${pincode} yet.`,
  /** The server's refusal of an order whose city or state is not its pincode's (422). */
  mismatch: (pincode: string, area: Pick<DeliveryArea, 'city' | 'state'>) =>
    `Pincode ${pincode} is in ${area.city}, ${area.state}. Check the pincode, or change the city to ${area.city}.`,
  slotNotHere: (slot: string, pincode: string) => `${slot} delivery is not offered at ${pincode}.`,
  noSameDay: (pincode: string) => `Same-day delivery is not offered at ${pincode}: the earliest is tomorrow.`,
  saved: (pincode: string) => `Saved ${pincode}.`,
  removed: (pincode: string) => `We no longer deliver to ${pincode}.`,
  pasted: (added: number, changed: number) =>
    `Added ${added} ${added === 1 ? 'pincode' : 'pincodes'}, changed ${changed}.`,
} as const;

/**
 * A city's or state's name: letters of any script (with their vowel signs), spaces, dots ("S.A.S.
 * Nagar") and hyphens ("Vasai-Virar"), starting with a letter. Names travel into the page heads,
 * the JSON-LD, the feed and every delivery sentence, so anything else (markup, digits, commas that
 * would split a pasted line) is refused here. Names already kept are read as they are: the areas
 * still load and show, and an edit asks for a name that passes.
 */
export const AREA_NAME_PATTERN = /^\p{L}[\p{L}\p{M} .-]*$/u;

const singleLineName = (missing: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(missing),
    v.maxLength(AREA_NAME_MAX, areaMessages.nameTooLong),
    v.regex(AREA_NAME_PATTERN, areaMessages.nameLetters),
  );

const slotId = v.pipe(
  v.number(areaMessages.slotIdInvalid),
  v.minValue(1, areaMessages.slotIdInvalid),
  v.maxValue(SLOT_ID_MAX, areaMessages.slotIdInvalid),
  v.integer(areaMessages.slotIdInvalid),
);

/** The admin's add or edit of one pincode (`PUT /admin/delivery-areas/{pincode}`). */
export const AreaInputSchema = v.object({
  city: singleLineName(areaMessages.cityRequired),
  state: singleLineName(areaMessages.stateRequired),
  charge: v.pipe(
    v.number(areaMessages.chargeInvalid),
    v.integer(areaMessages.chargeInvalid),
    v.minValue(0, areaMessages.chargeInvalid),
    v.maxValue(AREA_CHARGE_MAX, areaMessages.chargeInvalid),
  ),
  slotIDs: v.optional(v.nullable(v.array(slotId, areaMessages.slotIdInvalid)), null),
  sameDay: v.optional(v.boolean(), true),
});
export type AreaInput = v.InferOutput<typeof AreaInputSchema>;

export const PincodeParamsSchema = v.object({
  pincode: v.pipe(v.string(), v.check(isValidPincode, areaMessages.pincodeInvalid)),
});

/** A paste of `pincode,city,state,charge` lines (`POST /admin/delivery-areas/import`). */
export const AreaPasteSchema = v.object({
  lines: v.pipe(v.string(), v.nonEmpty(areaMessages.pasteEmpty), v.maxLength(AREA_PASTE_MAX * 80)),
});

export const AreaPasteResultSchema = v.object({
  added: int,
  changed: int,
  areas: v.array(DeliveryAreaSchema),
});

type PastedArea = Pick<DeliveryArea, 'pincode' | 'city' | 'state' | 'charge'>;

/** One pasted line as an area, or what is wrong with it. A charge may be written "₹150". */
function pastedLineProblem(line: string): PastedArea | string {
  const cells = line.split(/\s*[,\t]\s*/);
  if (cells.length !== 4) return areaMessages.pasteShape;
  const [pincode = '', city = '', state = '', charge = ''] = cells;
  if (!isValidPincode(pincode)) return areaMessages.pincodeInvalid;
  const rupees = charge.replace(/^₹/, '');
  const input = v.safeParse(AreaInputSchema, {
    city,
    state,
    charge: /^\d+$/.test(rupees) ? Number(rupees) : Number.NaN,
  });
  if (!input.success) return input.issues[0]?.message ?? areaMessages.pasteShape;
  return { pincode, city: input.output.city, state: input.output.state, charge: input.output.charge };
}

/**
 * Reads pasted `pincode,city,state,charge` lines. Blank lines and a header line ("pincode,...")
 * are skipped; every other line must be whole, or the paste is refused with each bad line named
 * (nothing is half-added). A pincode pasted twice keeps its last line. New pincodes get every slot
 * and same-day delivery; the server keeps an existing pincode's slots and same-day choice.
 */
export function parseAreaLines(
  text: string,
): { ok: true; areas: PastedArea[] } | { ok: false; errors: string[] } {
  const byPincode = new Map<string, PastedArea>();
  const errors: string[] = [];
  const lines = text.split(/\r?\n/);
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first === -1) return { ok: false, errors: [areaMessages.pasteEmpty] };
  if (lines.filter((l) => l.trim() !== '').length > AREA_PASTE_MAX + 1)
    return { ok: false, errors: [areaMessages.pasteTooLong] };
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || (i === first && /^pin/i.test(line))) continue;
    const problem = pastedLineProblem(line);
    if (typeof problem === 'string') errors.push(areaMessages.pasteLine(i + 1, problem));
    else byPincode.set(problem.pincode, problem);
  }
  return errors.length ? { ok: false, errors } : { ok: true, areas: [...byPincode.values()] };
}

// ------------------------------------------------------------------ reading the areas

export function findArea(areas: readonly DeliveryArea[], pincode: string): DeliveryArea | undefined {
  return areas.find((a) => a.pincode === pincode);
}

/** Whether an order's State and City are its pincode's area (names as the area writes them, case aside). */
export function areaMatches(
  area: Pick<DeliveryArea, 'city' | 'state'>,
  state: string,
  city: string,
): boolean {
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  return same(area.city, city) && same(area.state, state);
}

/** The slots a pincode gets, in the order given (every live slot when the area names none). */
export function slotsOfArea<T extends { slotID: number }>(
  area: Pick<DeliveryArea, 'slotIDs'>,
  slots: readonly T[],
): T[] {
  return area.slotIDs === null ? [...slots] : slots.filter((s) => area.slotIDs?.includes(s.slotID));
}

export interface AreaCity {
  city: string;
  state: string;
  /** The lowest and highest charge of its pincodes. */
  minCharge: number;
  maxCharge: number;
  pincodes: string[];
}

/**
 * The cities delivered, each with its pincodes and charges: the shop's home first (a city that is
 * also its state's name, Chandigarh), then by charge, then by name. This is the order every text
 * names them in: "Chandigarh, Mohali, Kharar, Zirakpur and Panchkula".
 */
export function areaCities(areas: readonly DeliveryArea[]): AreaCity[] {
  const byCity = new Map<string, AreaCity>();
  for (const a of areas) {
    const key = `${a.state}/${a.city}`;
    const c = byCity.get(key);
    if (!c)
      byCity.set(key, {
        city: a.city,
        state: a.state,
        minCharge: a.charge,
        maxCharge: a.charge,
        pincodes: [a.pincode],
      });
    else {
      c.minCharge = Math.min(c.minCharge, a.charge);
      c.maxCharge = Math.max(c.maxCharge, a.charge);
      c.pincodes.push(a.pincode);
    }
  }
  const home = (c: AreaCity) => Number(c.city === c.state);
  return [...byCity.values()]
    .map((c) => ({ ...c, pincodes: c.pincodes.sort() }))
    .sort((a, b) => home(b) - home(a) || a.minCharge - b.minCharge || a.city.localeCompare(b.city));
}

/**
 * "Chandigarh, Mohali, Kharar, Zirakpur and Panchkula"; '' when the shop has no areas. With `most`,
 * the first `most` cities and how many others: "Chandigarh, Mohali, Kharar, Zirakpur, Panchkula and
 * 1,995 more" (a page head, which a shop of many towns would otherwise fill with all of them).
 */
export function citiesText(areas: readonly DeliveryArea[], most = Number.POSITIVE_INFINITY): string {
  const names = [...new Set(areaCities(areas).map((c) => c.city))];
  if (names.length > most && most >= 1) {
    const rest = names.length - most;
    return `${names.slice(0, most).join(', ')} and ${rest.toLocaleString('en-IN')} more`;
  }
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** "₹150-₹300", "₹200", or "no delivery charge" when every area is free. */
export function chargeRangeText(areas: readonly DeliveryArea[]): string {
  if (areas.length === 0) return '';
  const charges = areas.map((a) => a.charge);
  const low = Math.min(...charges);
  const high = Math.max(...charges);
  if (high === 0) return 'no delivery charge';
  return low === high ? formatRupees(low) : `${formatRupees(low)}-${formatRupees(high)}`;
}

/**
 * The one line every page says about delivery: "Same-day delivery in Chandigarh, Mohali, Kharar,
 * Zirakpur and Panchkula, ₹150-₹300". "Delivery in …" when no pincode gets same-day delivery; a
 * shop with no areas yet says it takes no delivery orders rather than promising one. `most` names
 * at most that many cities ("… and 1,995 more", `citiesText`).
 */
export function deliveryAreasText(areas: readonly DeliveryArea[], most = Number.POSITIVE_INFINITY): string {
  if (areas.length === 0) return 'We are not taking delivery orders yet';
  const sameDay = areas.filter((a) => a.sameDay);
  const where = citiesText(sameDay.length ? sameDay : areas, most);
  return `${sameDay.length ? 'Same-day delivery' : 'Delivery'} in ${where}, ${chargeRangeText(areas)}`;
}

/**
 * The spec's delivery table, by pincode: the demo shop's areas and the ones the migration gives a
 * shop upgraded from the fixed table. Chandigarh is its own state (a union territory).
 */
function seed(city: string, state: string, charge: number, pincodes: string[]): DeliveryArea[] {
  return pincodes.map((pincode) => ({ pincode, city, state, charge, slotIDs: null, sameDay: true }));
}
export const SEED_AREAS: readonly DeliveryArea[] = [
  ...seed('Chandigarh', 'Chandigarh', 200, [
    '160001',
    '160002',
    '160003',
    '160009',
    '160011',
    '160012',
    '160014',
    '160015',
    '160016',
    '160017',
    '160018',
    '160019',
    '160020',
    '160022',
    '160023',
    '160025',
    '160030',
    '160031',
    '160036',
    '160047',
  ]),
  ...seed('Mohali', 'Punjab', 150, ['160055', '160059', '160061', '160062', '160071', '140308']),
  ...seed('Kharar', 'Punjab', 200, ['140301']),
  ...seed('Zirakpur', 'Punjab', 250, ['140603', '140604']),
  ...seed('Panchkula', 'Haryana', 300, [
    '134101',
    '134102',
    '134104',
    '134108',
    '134109',
    '134112',
    '134113',
    '134114',
    '134116',
    '134117',
  ]),
];
