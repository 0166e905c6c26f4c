/** How long a message stays; long enough to read twice, and the shopper can close it sooner. */
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { type AlertItem, type AlertKind, AlertsContext } from '../hooks/useAlerts.js';

const ALERT_MS = 6000;
/** Older messages give way so the region never covers the screen. */
const MAX_ALERTS = 3;

export function AlertsProvider({ children }: { children: ReactNode }) {
  const [alerts, setAlerts] = useState<AlertItem[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    const timer = timers.current.get(id);
    if (timer) clearTimeout(timer);
    timers.current.delete(id);
    setAlerts((list) => list.filter((a) => a.id !== id));
  }, []);

  const notify = useCallback(
    (text: string, kind: AlertKind = 'info') => {
      const id = nextId.current++;
      setAlerts((list) => [...list, { id, text, kind }].slice(-MAX_ALERTS));
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), ALERT_MS),
      );
    },
    [dismiss],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const t of pending.values()) clearTimeout(t);
    };
  }, []);

  const shown = alerts.length > 0;
  useEffect(() => {
    if (!shown) return;
    // Escape dismisses the messages, unless a popup or menu closed on this press (it marks it handled).
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      for (const t of timers.current.values()) clearTimeout(t);
      timers.current.clear();
      setAlerts([]);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shown]);

  const polite = alerts.filter((a) => a.kind !== 'error');
  const urgent = alerts.filter((a) => a.kind === 'error');
  return (
    <AlertsContext.Provider value={notify}>
      {children}
      <div className="alerts">
        {/* Both live regions exist from the start: screen readers only announce changes to a region already in the page. */}
        <div role="status" aria-live="polite" className="alerts__list">
          {polite.map((a) => (
            <AlertBox key={a.id} alert={a} onClose={dismiss} />
          ))}
        </div>
        <div role="alert" className="alerts__list">
          {urgent.map((a) => (
            <AlertBox key={a.id} alert={a} onClose={dismiss} />
          ))}
        </div>
      </div>
    </AlertsContext.Provider>
  );
}

function AlertBox({ alert, onClose }: { alert: AlertItem; onClose: (id: number) => void }) {
  if (alert.kind === 'announce') return <span className="visually-hidden">{alert.text}</span>;
  return (
    <div className={`alert alert--${alert.kind}`}>
      <span>{alert.text}</span>
      <button
        type="button"
        className="alert__close"
        onClick={() => onClose(alert.id)}
        aria-label="Dismiss message"
      >
        ×
      </button>
    </div>
  );
}
