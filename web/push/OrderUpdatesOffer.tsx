/**
 * The offer of order updates on this phone, shown after an order is placed or queued (order
 * success) and on the order page: a moment the shopper has a reason to say yes, never a first
 * visit. The browser's permission prompt opens only from the shopper's tap on "Notify me"
 * (browsers quiet or refuse a prompt without one). The same permission serves the worker's
 * "Order #N placed" for an order queued offline. With the permission already given, the device
 * subscribes without asking. A browser without Web Push is told once; on iOS Safari the way
 * is the installed app, and where the browser offers installation, the install button is here.
 */
import { useEffect, useState } from 'react';
import { trackingMessages as t } from '../../domain/order-tracking.js';
import { pwaOfferMessages } from '../../domain/pwa-offer-messages.js';
import { ApiError } from '../api/client.js';
import { useSession } from '../hooks/useSession.js';
import { install } from '../pwa/install.js';
import { usePwaState } from '../pwa/pwa-state.js';
import {
  keepDeviceSubscribed,
  markNoPushTold,
  noPushTold,
  offerSnoozed,
  permission,
  pushSupport,
  snoozeOffer,
} from './push-device.js';
import './push.css';

type Phase = 'idle' | 'offer' | 'asking' | 'on' | 'blocked' | 'no-push' | 'hidden';

export function OrderUpdatesOffer() {
  const signedIn = Boolean(useSession());
  const { canInstall } = usePwaState();
  const [phase, setPhase] = useState<Phase>('idle');

  useEffect(() => {
    if (!signedIn) return;
    const support = pushSupport();
    if (support !== 'push') {
      // Said once on this device, whichever screen says it first.
      if (noPushTold()) setPhase('hidden');
      else {
        markNoPushTold();
        setPhase('no-push');
      }
      return;
    }
    const now = permission();
    if (now === 'denied') setPhase('hidden');
    else if (now === 'default') setPhase(offerSnoozed() ? 'hidden' : 'offer');
    else {
      setPhase('hidden');
      // Already allowed: keep this device subscribed (a new device, a key changed, after a logout).
      keepDeviceSubscribed().catch((err: unknown) => {
        if (!(err instanceof ApiError)) console.error('Order updates: subscribing failed', err);
      });
    }
  }, [signedIn]);

  const ask = async () => {
    setPhase('asking');
    let answer: NotificationPermission = 'default';
    try {
      answer = await Notification.requestPermission();
    } catch {
      answer = permission();
    }
    if (answer !== 'granted') {
      if (answer === 'denied') setPhase('blocked');
      else {
        snoozeOffer();
        setPhase('hidden');
      }
      return;
    }
    setPhase('on');
    try {
      await keepDeviceSubscribed();
    } catch (err) {
      // Offline now: the next order page or order success subscribes (the permission stays).
      if (!(err instanceof ApiError)) console.error('Order updates: subscribing failed', err);
    }
  };

  if (phase === 'idle' || phase === 'hidden') return null;
  if (phase === 'on' || phase === 'blocked') {
    return (
      <p className="push-offer push-offer--done" role="status">
        {phase === 'on' ? t.updatesOn : t.updatesBlocked}
      </p>
    );
  }
  if (phase === 'no-push') {
    const ios = pushSupport() === 'install-first';
    return (
      <section className="push-offer" aria-labelledby="push-offer-text">
        <p id="push-offer-text">{ios ? t.noPushIos : t.noPush}</p>
        <div className="push-offer__actions">
          {!ios && canInstall ? (
            <button
              type="button"
              className="btn btn--primary"
              onClick={() => {
                setPhase('hidden');
                void install();
              }}
            >
              {pwaOfferMessages.installButton}
            </button>
          ) : null}
          <button type="button" className="btn btn--outline" onClick={() => setPhase('hidden')}>
            {pwaOfferMessages.iosInstallDone}
          </button>
        </div>
      </section>
    );
  }
  return (
    <section className="push-offer" aria-labelledby="push-offer-text">
      <p id="push-offer-text">{t.updatesOffer}</p>
      <div className="push-offer__actions">
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => void ask()}
          disabled={phase === 'asking'}
        >
          {t.updatesYes}
        </button>
        <button
          type="button"
          className="btn btn--outline"
          onClick={() => {
            snoozeOffer();
            setPhase('hidden');
          }}
        >
          {t.updatesNo}
        </button>
      </div>
    </section>
  );
}
