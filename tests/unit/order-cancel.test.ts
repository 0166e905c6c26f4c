/**
 * The shopper's cancel rule (domain/order-cancel.ts): N hours before the slot's start in India's
 * time, the 15-minute grace, the Midnight slot, an order without a slot (Standard's 10 AM), and
 * instants that mean the same whatever the server's own time zone (every time here is UTC).
 */
import { describe, expect, it } from 'vitest';
import { type CancellableOrder, cancelVerdict, closedReason, slotStart } from '../../domain/order-cancel.js';

const at = (iso: string) => Date.parse(iso);
const order = (patch: Partial<CancellableOrder> = {}): CancellableOrder => ({
  status: 'placed',
  // Placed at 10:00 India time (04:30 UTC) on 1 Dec, for 3 Dec's Standard slot.
  orderDate: '2026-12-01T04:30:00.000Z',
  deliveryDate: '2026-12-03',
  deliverySlot: null,
  ...patch,
});

describe('when a shopper may cancel', () => {
  it('until N hours before the slot starts, in India time: open a minute before, closed from it', () => {
    // Standard starts at 10:00 India = 04:30 UTC on 3 Dec; 6 hours before is 22:30 UTC on 2 Dec.
    expect(slotStart(order())).toBe(at('2026-12-03T04:30:00Z'));
    expect(cancelVerdict(order(), 6, at('2026-12-02T22:29:00Z'))).toEqual({
      kind: 'open',
      until: at('2026-12-02T22:30:00Z'),
    });
    expect(cancelVerdict(order(), 6, at('2026-12-02T22:30:00Z'))).toEqual({ kind: 'closed', why: 'soon' });
    expect(cancelVerdict(order(), 6, at('2026-12-02T22:31:00Z'))).toEqual({ kind: 'closed', why: 'soon' });
    // 0 hours: until the slot starts.
    expect(cancelVerdict(order(), 0, at('2026-12-03T04:29:00Z')).kind).toBe('open');
    expect(cancelVerdict(order(), 0, at('2026-12-03T04:30:00Z')).kind).toBe('closed');
    expect(cancelVerdict(order({ status: 'paid' }), 6, at('2026-12-02T20:00:00Z')).kind).toBe('open');
  });

  it("the Midnight slot starts at 11 PM of its own date; a slot's kept window counts, not today's", () => {
    const midnight = order({ deliverySlot: { start: 23 * 60 } });
    // 23:00 India on 3 Dec = 17:30 UTC; 6 hours before = 11:30 UTC.
    expect(slotStart(midnight)).toBe(at('2026-12-03T17:30:00Z'));
    expect(cancelVerdict(midnight, 6, at('2026-12-03T11:29:00Z')).kind).toBe('open');
    expect(cancelVerdict(midnight, 6, at('2026-12-03T11:30:00Z')).kind).toBe('closed');
  });

  it('within 15 minutes of ordering always, unless it is out for delivery or delivered', () => {
    // Placed at 17:00 India (11:30 UTC) for 21:00 the same day: its slot is 4 hours away.
    const sameDay = order({
      orderDate: '2026-12-03T11:30:00.000Z',
      deliveryDate: '2026-12-03',
      deliverySlot: { start: 21 * 60 },
    });
    expect(cancelVerdict(sameDay, 6, at('2026-12-03T11:44:00Z'))).toEqual({
      kind: 'open',
      until: at('2026-12-03T11:45:00Z'),
    });
    expect(cancelVerdict(sameDay, 6, at('2026-12-03T11:45:00Z'))).toEqual({ kind: 'closed', why: 'soon' });
    // Confirmed by the shop: only the grace is left.
    const confirmed = { ...sameDay, status: 'confirmed' as const };
    expect(cancelVerdict(confirmed, 6, at('2026-12-03T11:40:00Z')).kind).toBe('open');
    expect(cancelVerdict(confirmed, 6, at('2026-12-03T11:46:00Z'))).toEqual({
      kind: 'closed',
      why: 'confirmed',
    });
    expect(cancelVerdict({ ...order(), status: 'confirmed' }, 6, at('2026-12-01T06:00:00Z'))).toEqual({
      kind: 'closed',
      why: 'confirmed',
    });
    // Out for delivery or delivered: never, not even at once.
    for (const status of ['out for delivery', 'delivered'] as const)
      expect(cancelVerdict({ ...sameDay, status }, 6, at('2026-12-03T11:31:00Z'))).toEqual({
        kind: 'closed',
        why: status,
      });
    expect(cancelVerdict({ ...sameDay, status: 'cancelled' }, 6, at('2026-12-03T11:31:00Z'))).toEqual({
      kind: 'cancelled',
    });
  });

  it('says why in words, with the hours the shop chose', () => {
    expect(closedReason('soon', 6)).toBe(
      'Its delivery slot starts within 6 hours, so it can no longer be cancelled here.',
    );
    expect(closedReason('confirmed', 6)).toMatch(/confirmed/);
  });
});
