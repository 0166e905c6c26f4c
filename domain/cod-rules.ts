/**
 * Cash on Delivery a bakery can afford: the owner's three rules (settings `codEnabled`, `codLimit`,
 * `codPersonalised`), judged once here for the checkout, the outbox and the server. A refused cake
 * at the door is a total loss, so the rules keep some orders to online payment; they apply only
 * while the shop offers online payment (a shop without a provider takes Cash on Delivery as
 * always: nobody could pay any other way).
 */
import * as v from 'valibot';
import { formatRupees } from './money.js';
import { PAYMENT_METHODS, type PaymentMethod } from './payment-methods.js';

/** A personalised line (a message on the cake, a photo): like any order, or paid online only. */
export const COD_PERSONALISED = { any: 'Like any order', online: 'Online only' } as const;
export type CodPersonalised = keyof typeof COD_PERSONALISED;
export const CodPersonalisedSchema = v.picklist(
  Object.keys(COD_PERSONALISED) as CodPersonalised[],
  'Choose how a cake with a message or a photo is paid.',
);

/** The most a limit may be: above it no order of a bakery would ever reach. */
export const MAX_COD_LIMIT = 1_000_000;
export const DEFAULT_COD_LIMIT = 10_000;

export const codMessages = {
  limitInvalid: `The limit is a whole number of rupees from 0 (no limit) to ${formatRupees(MAX_COD_LIMIT)}.`,
  off: 'Cash on Delivery is not available. Please pay online.',
  limit: (limit: number) => `Cash on Delivery is available up to ${formatRupees(limit)}. Please pay online.`,
  personalised: 'A cake with a message or a photo is paid online. Please pay online.',
  waitsForProvider:
    'These rules apply once the shop takes payment online; until then every order can be Cash on Delivery.',
} as const;

export interface CodRules {
  codEnabled: boolean;
  /** Whole rupees; 0: no limit. */
  codLimit: number;
  codPersonalised: CodPersonalised;
}

export type CodRule = 'off' | 'limit' | 'personalised';

/** A Cash on Delivery order the rules refuse: the rule, the limit it broke, what to say. */
export interface CodProblem {
  rule: CodRule;
  limit?: number;
  message: string;
}

/** Whether a line is personalised: a message on the cake or a photo. */
export function isPersonalised(line: { cakeMessage?: string | null; photoID?: string | null }): boolean {
  return Boolean(line.cakeMessage?.trim() || line.photoID);
}

/**
 * Why an order cannot be Cash on Delivery, or null. `total` is the whole total in rupees (lines,
 * delivery and slot charges, less the coupon): the server passes its own, never the shopper's.
 * Off first (nothing else matters), then a personalised line (its own reason to pay online, at any
 * total), then the limit.
 */
export function codProblem(o: {
  rules: CodRules;
  /** Online payment is offered (a provider is set). */
  paysOnline: boolean;
  paymentMethod: PaymentMethod;
  total: number;
  personalised: boolean;
}): CodProblem | null {
  if (!o.paysOnline || o.paymentMethod !== PAYMENT_METHODS.cod) return null;
  const { codEnabled, codLimit, codPersonalised } = o.rules;
  if (!codEnabled) return { rule: 'off', message: codMessages.off };
  if (o.personalised && codPersonalised === 'online')
    return { rule: 'personalised', message: codMessages.personalised };
  if (codLimit > 0 && o.total > codLimit)
    return { rule: 'limit', limit: codLimit, message: codMessages.limit(codLimit) };
  return null;
}

/** The refusal's `data` (place-order's 422): what a device needs to say it and offer online payment. */
export interface CodRefusal {
  reason: 'cod';
  rule: CodRule;
  limit?: number;
}

export function codRefusal(problem: CodProblem): CodRefusal {
  return problem.limit === undefined
    ? { reason: 'cod', rule: problem.rule }
    : { reason: 'cod', rule: problem.rule, limit: problem.limit };
}
