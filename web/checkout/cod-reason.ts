/**
 * Why the checkout cannot offer Cash on Delivery for this order, said under the choice before the
 * shopper picks: someone else's gift with no price in the box (`domain/gifts.ts`), or the owner's
 * Cash on Delivery rules (`domain/cod-rules.ts`), judged by the device's settings and the payment
 * provider it last heard. A device that never heard of one judges nothing: the order is sent and
 * the server decides.
 */
import type { CartLine } from '../../domain/cart.js';
import { codProblem, isPersonalised } from '../../domain/cod-rules.js';
import { giftMessages } from '../../domain/gifts.js';
import { PAYMENT_METHODS } from '../../domain/payment-methods.js';
import type { PaymentProviderName } from '../../domain/payments.contract.js';
import type { ShopSettings } from '../../domain/settings.js';
import { usePaymentProvider } from '../hooks/usePaysOnline.js';

export function codReason(o: {
  giftBlocked: boolean;
  settings: ShopSettings | undefined;
  provider: PaymentProviderName | null | undefined;
  total: number;
  cart: readonly CartLine[];
}): string | null {
  if (o.giftBlocked) return giftMessages.giftCod;
  if (!o.settings || !o.provider) return null;
  return (
    codProblem({
      rules: o.settings,
      paysOnline: true,
      paymentMethod: PAYMENT_METHODS.cod,
      total: o.total,
      personalised: o.cart.some((l) => isPersonalised({ cakeMessage: l.cakeMessage, photoID: l.photo?.key })),
    })?.message ?? null
  );
}

/** The reason for this checkout, with the provider it was judged by (`usePaymentProvider`). */
export function useCodReason(o: Omit<Parameters<typeof codReason>[0], 'provider'>) {
  const provider = usePaymentProvider();
  return { provider, reason: codReason({ ...o, provider }) };
}
