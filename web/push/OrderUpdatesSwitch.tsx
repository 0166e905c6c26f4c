import { useEffect, useState } from 'react';
import { trackingMessages as t } from '../../domain/order-tracking.js';
import { serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import {
  orderUpdatesWanted,
  permission,
  pushSupport,
  setOrderUpdates,
  subscribeDevice,
  unsubscribeDevice,
} from './push-device.js';
import './push.css';

/**
 * My Profile's switch for order updates. Off: the server stops queuing the shopper's
 * updates (`PUT /api/push/preferences`) and this device's subscription is dropped. On: the
 * preference again, and this device subscribes (the browser asks for the permission here if it
 * was never given: the tap is the shopper's own).
 */
export function OrderUpdatesSwitch() {
  const notify = useNotify();
  const [on, setOn] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const support = pushSupport();

  useEffect(() => {
    let live = true;
    orderUpdatesWanted()
      .then((wanted) => live && setOn(wanted))
      .catch(() => live && setOn(null));
    return () => {
      live = false;
    };
  }, []);

  const change = async (next: boolean) => {
    setBusy(true);
    setNote(null);
    try {
      if (next && support === 'push' && permission() === 'default') await Notification.requestPermission();
      await setOrderUpdates(next);
      setOn(next);
      if (!next) await unsubscribeDevice();
      else if (support === 'push' && permission() === 'granted') await subscribeDevice();
      else if (support === 'push') setNote(t.switchBlocked);
      notify(next ? 'Order updates are on.' : 'Order updates are off.', 'success');
    } catch (err) {
      notify(serverMessageOr(err, 'Order updates could not be changed. Check your connection.'), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="push-switch" aria-labelledby="push-switch-title">
      <h2 id="push-switch-title" className="visually-hidden">
        Notifications
      </h2>
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={on === true}
          aria-checked={on === true}
          disabled={on === null || busy}
          aria-describedby="push-switch-help"
          onChange={(e) => void change(e.currentTarget.checked)}
        />
        {t.switchLabel}
      </label>
      <p id="push-switch-help">
        {support !== 'push'
          ? `${t.switchHelp} ${t.switchUnsupported}`
          : (note ?? (permission() === 'denied' ? `${t.switchHelp} ${t.switchBlocked}` : t.switchHelp))}
      </p>
    </section>
  );
}
