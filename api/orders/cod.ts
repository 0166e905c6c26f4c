/**
 * The owner's Cash on Delivery rules (`domain/cod-rules.ts`) on an order the server prices: read
 * fresh from the settings store (a change applies to the next order in every process), judged
 * against the server's own total. A refusal is a 422 with `data: {reason: 'cod', rule, limit?}`,
 * thrown inside the order's transaction, so it leaves no slot place, coupon or stored answer.
 */
import type { Kysely, Transaction } from 'kysely';
import { codProblem, codRefusal, isPersonalised } from '../../domain/cod-rules.js';
import type { OrderRequest } from '../../domain/orders.js';
import { PAYMENT_METHODS } from '../../domain/payment-methods.js';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { readSomeSettings } from '../settings/settings.service.js';

const COD_RULE_KEYS = ['codEnabled', 'codLimit', 'codPersonalised'] as const;

export async function checkCodRules(
  db: Kysely<Database> | Transaction<Database>,
  body: Pick<OrderRequest, 'PaymentMethod' | 'OrderItems'>,
  total: number,
  paysOnline: boolean,
): Promise<void> {
  // Nothing to read for an online order, or a shop without online payment (no rule applies).
  if (!paysOnline || body.PaymentMethod !== PAYMENT_METHODS.cod) return;
  const problem = codProblem({
    rules: await readSomeSettings(db, COD_RULE_KEYS),
    paysOnline,
    paymentMethod: body.PaymentMethod,
    total,
    personalised: body.OrderItems.some((i) =>
      isPersonalised({ cakeMessage: i.CakeMessage, photoID: i.PhotoID }),
    ),
  });
  if (problem) throw new HttpError(422, problem.message, codRefusal(problem));
}
