/**
 * The admin's two switches for this device on the live orders bar (`AdminLiveOrders.tsx`): the
 * chime for new orders, and new-order notifications (`new-order-alerts.ts`). One markup for both.
 */
import { type ReactNode, useEffect, useState } from 'react';
import { liveMessages } from '../../domain/admin-live.js';
import { serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { chime, chimeAllowed, chimeWanted, setChimeWanted, unlockChime } from './chime.js';
import { useAdminCall } from './connection.js';
import {
  AlertsProblem,
  alertsBlocked,
  alertsOn,
  keepAlertsOn,
  turnAlertsOff,
  turnAlertsOn,
} from './new-order-alerts.js';

function Switch(p: {
  id: string;
  on: boolean;
  busy?: boolean;
  label: string;
  help: ReactNode;
  onChange(next: boolean): void;
}) {
  return (
    <div className="admin-live__switch">
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={p.on}
          aria-checked={p.on}
          disabled={p.busy}
          aria-describedby={p.id}
          onChange={(e) => p.onChange(e.currentTarget.checked)}
        />
        {p.label}
      </label>
      <p id={p.id} className="admin-live__help">
        {p.help}
      </p>
    </div>
  );
}

export function SoundSwitch() {
  const [on, setOn] = useState(chimeWanted);
  const [allowed, setAllowed] = useState(chimeAllowed);
  useEffect(() => {
    if (allowed) return;
    const unlock = () => {
      unlockChime();
      setAllowed(chimeAllowed());
    };
    window.addEventListener('pointerdown', unlock);
    window.addEventListener('keydown', unlock);
    return () => {
      window.removeEventListener('pointerdown', unlock);
      window.removeEventListener('keydown', unlock);
    };
  }, [allowed]);
  return (
    <Switch
      id="live-sound-help"
      on={on}
      label={liveMessages.soundLabel}
      help={on && !allowed ? liveMessages.soundNeedsTap : liveMessages.soundHelp}
      onChange={(next) => {
        setChimeWanted(next);
        setOn(next);
        // The admin's tap: the sound can start, and says it is on.
        if (next) void chime();
      }}
    />
  );
}

export function AlertsSwitch() {
  const adminCall = useAdminCall();
  const notify = useNotify();
  const [on, setOn] = useState(alertsOn);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    void keepAlertsOn(adminCall).catch(() => undefined);
  }, [adminCall]);
  const change = async (next: boolean) => {
    setBusy(true);
    setNote(null);
    try {
      await (next ? turnAlertsOn(adminCall) : turnAlertsOff(adminCall));
      setOn(next);
      notify(next ? liveMessages.pushOn : liveMessages.pushOff, 'success');
    } catch (err) {
      if (err instanceof AlertsProblem) setNote(err.message);
      else notify(serverMessageOr(err, liveMessages.pushFailed), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Switch
      id="live-push-help"
      on={on}
      busy={busy}
      label={liveMessages.pushLabel}
      help={note ?? alertsBlocked() ?? liveMessages.pushHelp}
      onChange={(next) => void change(next)}
    />
  );
}
