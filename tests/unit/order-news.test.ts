import { describe, expect, it } from 'vitest';
import {
  LIVE_FIRST_LOOK_MS,
  LIVE_OVERLAP_MS,
  liveMessages,
  type OrderChange,
} from '../../domain/admin-live.js';
import { addNews, readAnswer, sinceOf, startWatch, type Watch } from '../../web/admin/order-news.js';

/**
 * What an open admin screen makes of "which orders changed since" (web/admin/order-news.ts): the
 * first answer is the start (no news), then new orders, others' moves, never the admin's own, never
 * twice across the overlapping answers; and the words the screen says.
 */
const T = 1_800_000_000_000;
const change = (
  orderID: number,
  status: OrderChange['status'],
  createdAt: number,
  updatedAt = createdAt,
  byYou = false,
) => ({ orderID, status, createdAt, updatedAt, byYou }) satisfies OrderChange;
/** Answers list the latest change first, as the server does. */
const answer = (now: number, changes: OrderChange[], more = false) => ({
  now,
  changes: [...changes].sort((a, b) => b.updatedAt - a.updatedAt),
  more,
});

describe('order news', () => {
  it('starts from the first answer: what it lists is there already, nothing is news', () => {
    let watch: Watch = startWatch();
    expect(sinceOf(watch)).toBeUndefined();
    const first = readAnswer(watch, answer(T, [change(7, 'placed', T - 30_000)]));
    expect(first.news).toBeNull();
    watch = first.watch;
    expect(watch.from).toBe(T - LIVE_FIRST_LOOK_MS);
    expect(sinceOf(watch)).toBe(T - LIVE_OVERLAP_MS);
    // The same order again in the overlapping answer: still nothing.
    expect(readAnswer(watch, answer(T + 10_000, [change(7, 'placed', T - 30_000)])).news).toBeNull();
  });

  it('names new orders once, and moves made by someone else, oldest first', () => {
    let watch = readAnswer(startWatch(), answer(T, [change(7, 'placed', T - 30_000)])).watch;
    const second = readAnswer(
      watch,
      answer(T + 10_000, [
        change(7, 'placed', T - 30_000),
        change(8, 'placed', T + 2_000),
        change(9, 'paid', T + 4_000),
      ]),
    );
    expect(second.news).toEqual({ newOrders: [8, 9], moved: [], more: false });
    watch = second.watch;
    // The payment moves 8, another admin confirms 7; this admin's own move of 9 is no news.
    const third = readAnswer(
      watch,
      answer(T + 20_000, [
        change(7, 'confirmed', T - 30_000, T + 15_000),
        change(8, 'paid', T + 2_000, T + 12_000),
        change(9, 'confirmed', T + 4_000, T + 16_000, true),
      ]),
    );
    expect(third.news).toEqual({
      newOrders: [],
      moved: [
        { orderID: 8, status: 'paid' },
        { orderID: 7, status: 'confirmed' },
      ],
      more: false,
    });
    // The same answer again (the overlap): nothing more.
    expect(
      readAnswer(third.watch, answer(T + 30_000, [change(7, 'confirmed', T - 30_000, T + 15_000)])).news,
    ).toBeNull();
  });

  it('calls an order placed before the screen opened and moved now a move, not a new order', () => {
    const watch = readAnswer(startWatch(), answer(T, [])).watch;
    const old = T - LIVE_FIRST_LOOK_MS - 60_000;
    expect(readAnswer(watch, answer(T + 10_000, [change(3, 'paid', old, T + 5_000)])).news).toEqual({
      newOrders: [],
      moved: [{ orderID: 3, status: 'paid' }],
      more: false,
    });
    // A late commit: placed (by its clock) before the last answer, first seen now. Still new.
    expect(readAnswer(watch, answer(T + 10_000, [change(4, 'placed', T - 1_000)])).news?.newOrders).toEqual([
      4,
    ]);
  });

  it('says more changed when the answer could not name them all', () => {
    const watch = readAnswer(startWatch(), answer(T, [], true)).watch;
    expect(readAnswer(watch, answer(T + 10_000, [], true)).news).toEqual({
      newOrders: [],
      moved: [],
      more: true,
    });
  });

  it('gathers news until dismissed: new orders once, an order’s latest move only', () => {
    const gathered = addNews(
      addNews(null, { newOrders: [8], moved: [{ orderID: 7, status: 'confirmed' }], more: false }),
      {
        newOrders: [8, 10],
        moved: [
          { orderID: 7, status: 'out for delivery' },
          { orderID: 8, status: 'paid' },
        ],
        more: false,
      },
    );
    expect(gathered).toEqual({
      newOrders: [8, 10],
      moved: [{ orderID: 7, status: 'out for delivery' }],
      more: false,
    });
  });

  it('says what changed in words', () => {
    expect(liveMessages.news(1, [])).toBe('1 new order');
    expect(liveMessages.news(2, [])).toBe('2 new orders');
    expect(liveMessages.news(0, [{ orderID: 12, status: 'paid' }])).toBe('Order #12 is now paid');
    expect(
      liveMessages.news(1, [
        { orderID: 12, status: 'paid' },
        { orderID: 13, status: 'cancelled' },
      ]),
    ).toBe('1 new order, 2 orders moved');
  });
});
