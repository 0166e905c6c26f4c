/**
 * The Coupons screen without its screen: the words it shows, how a coupon's row reads, the form's
 * values as typed and the request they make (checked first by the domain's own schemas, so every
 * problem shows at its field before anything is sent), and where a server's refusal belongs.
 * Pure, so the web test and the browser test read the same words the screen shows.
 */
import * as v from 'valibot';
import {
  type CouponEdit,
  CouponEditSchema,
  type CouponInput,
  CouponInputSchema,
  type CouponSummary,
  couponFormMessages,
  endsAfterStart,
} from '../../domain/coupons.js';
import {
  formatIndiaDateTime,
  fromIndiaDateTimeInput,
  toIndiaDateTimeInput,
} from '../../domain/india-time.js';
import { refusalOf } from './settings-forms.js';
import type { Refusal } from './useRecordForm.js';

export const couponTexts = {
  title: 'Coupons',
  newCoupon: 'New coupon',
  editTitle: (code: string) => `Edit ${code}`,
  create: 'Create coupon',
  save: 'Save coupon',
  empty: 'No coupons yet.',
  caption: 'Coupons, newest first',
  endNow: 'End now',
  endConfirm: (code: string) =>
    `End ${code} now? Shoppers can no longer use it and its banner goes. Orders that used it keep it.`,
  codeHelp: 'Letters and digits; shoppers type it at checkout.',
  takesOff: 'Takes off',
  flat: 'A flat amount',
  percent: 'A percentage',
  minItemsHelp: '0 for none.',
  maxUsesHelp: 'Empty for no limit.',
  startsHelp: 'Empty: it can be used at once.',
  endsHelp: 'Empty: it has no end.',
  always: 'Always',
  states: { live: 'Live', scheduled: 'Scheduled', ended: 'Ended' },
} as const;

/** The Window column: "From 1 Dec 2026, 10:00 am until 2 Dec 2026, 12:00 am", either half, or "Always". */
export function windowText(c: Pick<CouponSummary, 'startsAt' | 'endsAt'>): string {
  const parts = [
    c.startsAt === null ? '' : `From ${formatIndiaDateTime(c.startsAt)}`,
    c.endsAt === null ? '' : `until ${formatIndiaDateTime(c.endsAt)}`,
  ].filter(Boolean);
  return parts.length ? parts.join(' ') : couponTexts.always;
}

/** The Uses column: "3", or "3 of 100" when the coupon has a limit in all. */
export function usesText(c: Pick<CouponSummary, 'uses' | 'maxUses'>): string {
  return c.maxUses === null ? `${c.uses}` : `${c.uses} of ${c.maxUses}`;
}

// ------------------------------------------------------------------ the form

/** The form as typed: numbers and times as their boxes hold them, so a wrong one is the schema's message. */
export interface CouponFormValues {
  code: string;
  kind: 'flat' | 'percent';
  amount: string;
  percent: string;
  cap: string;
  minItems: string;
  firstOrderOnly: boolean;
  maxUses: string;
  perAccount: string;
  /** `datetime-local` values in India time; '' for none. */
  startsAt: string;
  endsAt: string;
}

/** The fields a problem can be shown at, in the form's order (the first is focused); the server's `data.field` names. */
export const COUPON_FIELDS = [
  'code',
  'off.amount',
  'off.percent',
  'off.cap',
  'minItems',
  'maxUses',
  'perAccount',
  'startsAt',
  'endsAt',
] as const;
export type CouponField = (typeof COUPON_FIELDS)[number];
export type CouponProblems = Partial<Record<CouponField, string>>;

export const EMPTY_COUPON: CouponFormValues = {
  code: '',
  kind: 'flat',
  amount: '',
  percent: '',
  cap: '',
  minItems: '0',
  firstOrderOnly: false,
  maxUses: '',
  perAccount: '1',
  startsAt: '',
  endsAt: '',
};

export function couponValues(c: CouponSummary): CouponFormValues {
  return {
    code: c.code,
    kind: c.off.kind,
    amount: c.off.kind === 'flat' ? String(c.off.amount) : '',
    percent: c.off.kind === 'percent' ? String(c.off.percent) : '',
    cap: c.off.kind === 'percent' ? String(c.off.cap) : '',
    minItems: String(c.minItems),
    firstOrderOnly: c.firstOrderOnly,
    maxUses: c.maxUses === null ? '' : String(c.maxUses),
    perAccount: String(c.perAccount),
    startsAt: toIndiaDateTimeInput(c.startsAt),
    endsAt: toIndiaDateTimeInput(c.endsAt),
  };
}

/** Whole digits only: "1e2", "12.5" or an empty box become NaN, which the schema words as the field's problem. */
function wholeOf(text: string): number {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : Number.NaN;
}
const timeOf = (text: string): number | null => (text.trim() === '' ? null : fromIndiaDateTimeInput(text));

export type CouponRequest =
  | { ok: true; mode: 'create'; body: CouponInput }
  | { ok: true; mode: 'edit'; body: CouponEdit }
  | { ok: false; problems: CouponProblems };

/**
 * The form as `POST /admin/coupons` (making) or `PUT /admin/coupons/{code}` (editing: no code, a
 * coupon keeps its code for life) takes it, as the schema gives it back (the code trimmed and in
 * capitals); or each field's first problem.
 */
export function couponRequest(f: CouponFormValues, mode: 'create' | 'edit'): CouponRequest {
  const fields = {
    off:
      f.kind === 'flat'
        ? { kind: 'flat' as const, amount: wholeOf(f.amount) }
        : { kind: 'percent' as const, percent: wholeOf(f.percent), cap: wholeOf(f.cap) },
    minItems: wholeOf(f.minItems),
    firstOrderOnly: f.firstOrderOnly,
    maxUses: f.maxUses.trim() === '' ? null : wholeOf(f.maxUses),
    perAccount: wholeOf(f.perAccount),
    startsAt: timeOf(f.startsAt),
    endsAt: timeOf(f.endsAt),
  };
  if (mode === 'create') {
    const parsed = v.safeParse(CouponInputSchema, { code: f.code, ...fields });
    return parsed.success ? { ok: true, mode, body: parsed.output } : refused(parsed.issues, fields);
  }
  const parsed = v.safeParse(CouponEditSchema, fields);
  return parsed.success ? { ok: true, mode, body: parsed.output } : refused(parsed.issues, fields);
}

function refused(
  issues: readonly v.BaseIssue<unknown>[],
  window: { startsAt: number | null; endsAt: number | null },
): CouponRequest {
  const problems: CouponProblems = {};
  for (const issue of issues) {
    const field = fieldOf(issue.path?.map((p) => String(p.key)).join('.'));
    if (field && !problems[field]) problems[field] = issue.message;
  }
  // The schema weighs the end against the start only once every field is right; the owner hears it now.
  if (!endsAfterStart(window)) problems.endsAt ??= couponFormMessages.endsAt;
  return { ok: false, problems };
}

function fieldOf(path: string | undefined): CouponField | null {
  return COUPON_FIELDS.find((f) => f === path) ?? null;
}

/** Where a failed call's message belongs: at the field `data.field` names (`off.amount`, `code`), else under the form. */
export function couponRefusal(err: unknown, fallback: string): Refusal<CouponField> {
  return refusalOf(err, COUPON_FIELDS, fallback);
}
