/**
 * What an open admin screen makes of each answer to "which orders changed since" (README.md,
 * "Live orders"), pure: the first answer is where the screen starts (nothing is news); after it,
 * an order never seen and placed after that start is a new order, a status that differs from the
 * one seen is a move, unless the admin asking made it. Each answer overlaps the one before
 * (LIVE_OVERLAP_MS), so the screen remembers what it has seen and says nothing twice.
 */
import { LIVE_FIRST_LOOK_MS, LIVE_OVERLAP_MS, type OrderChanges } from '../../domain/admin-live.js';
import type { OrderStatus } from '../../domain/orders.js';

export interface Watch {
  /** The last answer's server time; null before the first answer. */
  lastNow: number | null;
  /** Orders placed before this (server time) were there when the screen opened: never new. */
  from: number;
  /** Each order seen, with its status and when it last changed. */
  seen: ReadonlyMap<number, { status: OrderStatus; updatedAt: number }>;
}

export interface Moved {
  orderID: number;
  status: OrderStatus;
}

export interface News {
  newOrders: number[];
  moved: Moved[];
  /** More changed than one answer names: the screen is reloaded without naming them. */
  more: boolean;
}

export const startWatch = (): Watch => ({ lastNow: null, from: 0, seen: new Map() });

/** The next question's `since`: none at first (the server looks back LIVE_FIRST_LOOK_MS). */
export function sinceOf(watch: Watch): number | undefined {
  return watch.lastNow === null ? undefined : watch.lastNow - LIVE_OVERLAP_MS;
}

export function readAnswer(watch: Watch, answer: OrderChanges): { watch: Watch; news: News | null } {
  const first = watch.lastNow === null;
  const from = first ? answer.now - LIVE_FIRST_LOOK_MS : watch.from;
  const seen = new Map(watch.seen);
  const news: News = { newOrders: [], moved: [], more: !first && answer.more };
  // The oldest change first, so the words follow the order things happened in.
  for (const c of [...answer.changes].reverse()) {
    const before = seen.get(c.orderID);
    seen.set(c.orderID, { status: c.status, updatedAt: c.updatedAt });
    if (first || (before && before.updatedAt === c.updatedAt && before.status === c.status)) continue;
    if (!before && c.createdAt > from) news.newOrders.push(c.orderID);
    else if (!c.byYou && before?.status !== c.status)
      news.moved.push({ orderID: c.orderID, status: c.status });
  }
  const next: Watch = { lastNow: answer.now, from, seen };
  return { watch: next, news: news.newOrders.length || news.moved.length || news.more ? news : null };
}

/** News gathered until the admin dismisses it: new orders once each, an order's latest move only. */
export function addNews(before: News | null, more: News): News {
  if (!before) return more;
  const moved = new Map(before.moved.map((m) => [m.orderID, m]));
  for (const m of more.moved) {
    moved.delete(m.orderID);
    moved.set(m.orderID, m);
  }
  const newOrders = [...new Set([...before.newOrders, ...more.newOrders])];
  // A new order moving before the admin looked is still a new order, in its latest status.
  for (const id of newOrders) moved.delete(id);
  return { newOrders, moved: [...moved.values()], more: before.more || more.more };
}
