/**
 * Live orders on the open orders list and dashboard (README.md, "Live orders"). While the screen
 * is open, visible and online it asks `GET /api/admin/order-changes` every LIVE_POLL_MS with the
 * last answer's ETag (an unchanged answer is a 304 with no body), at once when it becomes visible
 * or the device comes back online, never while hidden; nothing of it runs on any other screen.
 * News reloads the screen's own data, says what changed ("2 new orders"), chimes for a new order
 * when the admin wants it, and wakes the bell. The bar holds the admin's two switches for this
 * device: the sound, and new-order notifications (`new-order-alerts.ts`).
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { adminApi } from '../../domain/admin.contract.js';
import { LIVE_POLL_MS, liveMessages, NEW_ORDERS_EVENT } from '../../domain/admin-live.js';
import { ApiError, callRevalidated } from '../api/client.js';
import { chime, chimeWanted } from './chime.js';
import { AlertsSwitch, SoundSwitch } from './LiveSwitches.js';
import { addNews, type News, readAnswer, sinceOf, startWatch } from './order-news.js';
import './live-orders.css';

export interface LiveOrders {
  /** What changed since the admin last looked (Show or Dismiss), or null. */
  news: News | null;
  /** Orders that came in while the screen was open, marked New until Dismiss. */
  fresh: ReadonlySet<number>;
  /** The admin saw the news (Show): the line goes quiet, the rows stay marked. */
  seen(): void;
  dismiss(): void;
}

/**
 * Watches the orders while the screen is mounted; `onNews` reloads what the screen shows. A
 * refused question (the session ended, the role taken away) stops it: the screen's own calls say why.
 */
export function useLiveOrders(onNews: () => void): LiveOrders {
  const [news, setNews] = useState<News | null>(null);
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set());
  const onNewsRef = useRef(onNews);
  onNewsRef.current = onNews;

  useEffect(() => {
    let live = true;
    let running = false;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let watch = startWatch();
    let etag: string | null = null;
    const controller = new AbortController();
    const asking = () => live && !stopped && document.visibilityState !== 'hidden' && navigator.onLine;
    const schedule = () => {
      clearTimeout(timer);
      // A hidden page or one without a network is asked again by the events below, not by a timer.
      if (asking()) timer = setTimeout(tick, LIVE_POLL_MS);
    };
    const tick = async () => {
      if (running || !asking()) return;
      running = true;
      clearTimeout(timer);
      try {
        const since = sinceOf(watch);
        const answer = await callRevalidated(adminApi.orderChanges, etag, {
          query: since === undefined ? {} : { since: String(since) },
          signal: controller.signal,
          endSessionOn401: false,
        });
        if (!live || !answer?.envelope.data) return;
        etag = answer.etag;
        const read = readAnswer(watch, answer.envelope.data);
        watch = read.watch;
        const heard = read.news;
        if (!heard) return;
        setNews((before) => addNews(before, heard));
        onNewsRef.current();
        if (heard.newOrders.length) {
          setFresh((before) => new Set([...before, ...heard.newOrders]));
          if (chimeWanted()) void chime();
          window.dispatchEvent(new Event(NEW_ORDERS_EVENT));
        }
      } catch (err) {
        if (err instanceof ApiError && (err.status === 401 || err.status === 403)) stopped = true;
        // Anything else (offline, a restart): asked again on the next turn.
      } finally {
        running = false;
        schedule();
      }
    };
    const now = () => void tick();
    const onVisibility = () => (document.visibilityState === 'hidden' ? clearTimeout(timer) : now());
    now();
    window.addEventListener('online', now);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      live = false;
      clearTimeout(timer);
      controller.abort();
      window.removeEventListener('online', now);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, []);

  const seen = useCallback(() => setNews(null), []);
  const dismiss = useCallback(() => {
    setNews(null);
    setFresh(new Set());
  }, []);
  return { news, fresh, seen, dismiss };
}

/**
 * Keeps the row the admin is reading where it is on the screen when the rows above it change (new
 * orders come in at the top): `hold()` before the reload notes the first row in view (rows carry
 * `data-live-row`), and once the new rows are on the page the window scrolls by what it moved.
 * The browser's own scroll anchoring is off on such a screen (live-orders.css), so the two never
 * both move it.
 */
export function useRowInPlace(rows: unknown): () => void {
  const held = useRef<{ id: string; top: number; at: number } | null>(null);
  const hold = useCallback(() => {
    held.current = firstRowInView();
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: new rows on the page are the trigger.
  useLayoutEffect(() => {
    const anchor = held.current;
    held.current = null;
    // A reload that failed left its anchor: rows changed later (a filter) are the admin's own doing.
    if (!anchor || Date.now() - anchor.at > LIVE_POLL_MS) return;
    const row = document.querySelector(`[data-live-row="${anchor.id}"]`);
    if (!row) return;
    const moved = row.getBoundingClientRect().top - anchor.top;
    if (moved) window.scrollBy(0, moved);
  }, [rows]);
  // A scroll while the reload is on its way: the row to keep is the one in view now.
  useEffect(() => {
    const again = () => {
      if (held.current) held.current = firstRowInView();
    };
    window.addEventListener('scroll', again, { passive: true });
    return () => window.removeEventListener('scroll', again);
  }, []);
  return hold;
}

function firstRowInView(): { id: string; top: number; at: number } | null {
  // Below the sticky top bar and the news line, which cover the top of the page.
  const covered = document.querySelector('.admin-live__news')?.getBoundingClientRect().bottom ?? 0;
  for (const row of document.querySelectorAll<HTMLElement>('[data-live-row]')) {
    const box = row.getBoundingClientRect();
    if (box.bottom > covered && row.dataset.liveRow)
      return { id: row.dataset.liveRow, top: box.top, at: Date.now() };
  }
  return null;
}

/**
 * The news line (sticky under the top bar, always there so nothing moves when it speaks) and the
 * device's switches. Show takes the admin to the newest new order: its row when the screen lists
 * it, else the orders list.
 */
export function LiveOrdersBar({ live }: { live: LiveOrders }) {
  const { news, seen, dismiss } = live;
  const navigate = useNavigate();
  const line = useRef<HTMLDivElement>(null);
  // Sticks just under the top bar, whose height grows on a phone (the search gets its own row).
  useEffect(() => {
    const bar = document.querySelector('.admin-top');
    const own = line.current;
    if (!bar || !own || typeof ResizeObserver === 'undefined') return;
    const fit = new ResizeObserver(() =>
      own.style.setProperty('--admin-live-top', `${bar.getBoundingClientRect().height}px`),
    );
    fit.observe(bar);
    return () => fit.disconnect();
  }, []);
  const show = (id: number | undefined) => {
    const row = document.querySelector(`[data-live-row="${id}"]`);
    if (row) row.scrollIntoView({ block: 'center' });
    else navigate('/all-admin-orders');
    seen();
  };
  const text = news
    ? news.newOrders.length || news.moved.length
      ? liveMessages.news(news.newOrders.length, news.moved)
      : liveMessages.manyChanged
    : liveMessages.watching;
  return (
    <div className="admin-live">
      <div ref={line} className={`admin-live__news${news ? ' admin-live__news--on' : ''}`}>
        <p role="status" data-testid="live-news">
          {text}
        </p>
        {news && (
          <span className="admin-live__actions">
            {news.newOrders.length > 0 && (
              <button type="button" className="btn btn--primary" onClick={() => show(news.newOrders.at(-1))}>
                {liveMessages.showNewest}
              </button>
            )}
            <button
              type="button"
              className="admin-live__dismiss"
              onClick={dismiss}
              aria-label={liveMessages.dismiss}
            >
              ×
            </button>
          </span>
        )}
      </div>
      <div className="admin-live__switches">
        <SoundSwitch />
        <AlertsSwitch />
      </div>
    </div>
  );
}
