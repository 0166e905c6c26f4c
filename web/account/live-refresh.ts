/**
 * While a screen is open, visible and online, it asks the server again every `POLL_MS` with
 * its ETag (an unchanged answer is a 304 with no body), at once when it becomes visible or the
 * device comes back online, and at once when the worker says a push moved an order. Polling,
 * not Server-Sent Events: README "Order tracking" says why.
 */
import { useEffect, useRef, useState } from 'react';
import type { OrderMovedMessage } from '../../sw/messages.js';
import { ApiError } from '../api/client.js';

export const POLL_MS = 5_000;

export interface LiveRefresh {
  /** The last try found no network: the screen shows the device's copy and says from when. */
  offline: boolean;
  /** At least one try has finished (answered or failed). */
  asked: boolean;
  /** The server's refusal (a 404 for an order that is not the account's), or null. */
  refused: ApiError | null;
}

export function useLiveRefresh(refresh: (() => Promise<unknown>) | null, onError?: (err: unknown) => void) {
  const [state, setState] = useState<LiveRefresh>({ offline: false, asked: false, refused: null });
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  useEffect(() => {
    if (!refresh) return;
    let live = true;
    let running = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(tick, POLL_MS);
    };
    const tick = async () => {
      if (!live) return;
      // A hidden page or a phone without signal is asked again when that changes (events below).
      if (running || document.visibilityState === 'hidden' || !navigator.onLine) {
        if (!navigator.onLine) setState((s) => (s.offline ? s : { ...s, offline: true, asked: true }));
        schedule();
        return;
      }
      running = true;
      try {
        await refresh();
        if (live) setState({ offline: false, asked: true, refused: null });
      } catch (err) {
        if (!live || (err instanceof ApiError && err.sessionEnded)) return;
        if (err instanceof ApiError && err.offline) setState((s) => ({ ...s, offline: true, asked: true }));
        else {
          setState((s) => ({
            ...s,
            asked: true,
            offline: false,
            refused: err instanceof ApiError && err.envelope ? err : null,
          }));
          onErrorRef.current?.(err);
        }
      } finally {
        running = false;
        if (live) schedule();
      }
    };
    const now = () => void tick();
    const onVisible = () => document.visibilityState === 'visible' && now();
    const onWorker = (event: MessageEvent) => {
      if ((event.data as OrderMovedMessage | null)?.type === 'ORDER_MOVED') now();
    };
    now();
    window.addEventListener('online', now);
    document.addEventListener('visibilitychange', onVisible);
    navigator.serviceWorker?.addEventListener('message', onWorker);
    return () => {
      live = false;
      clearTimeout(timer);
      window.removeEventListener('online', now);
      document.removeEventListener('visibilitychange', onVisible);
      navigator.serviceWorker?.removeEventListener('message', onWorker);
    };
  }, [refresh]);

  return state;
}
