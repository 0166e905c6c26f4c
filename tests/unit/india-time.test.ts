import { describe, expect, it } from 'vitest';
import { backupTimeText } from '../../domain/backups.js';
import {
  formatCalendarDate,
  formatIndiaDateTime,
  formatIndiaDayMonth,
  formatOrderDate,
} from '../../domain/india-time.js';
import { refundLine } from '../../domain/refunds.js';

/**
 * Dates and times as people in India write them, in India time whatever the zone of the server
 * or the laptop: "28 Nov 2026, 2:32 pm", never "Nov 28, 2026 2:32 PM". The admin's screens, the
 * slips and the mails all read through these.
 */
describe("India's dates and times", () => {
  it('writes an instant day first, in India time, with a lower-case am/pm', () => {
    expect(formatIndiaDateTime('2026-11-28T09:02:00.000Z')).toBe('28 Nov 2026, 2:32 pm');
    expect(formatIndiaDateTime(Date.parse('2026-11-23T13:35:00.000Z'))).toBe('23 Nov 2026, 7:05 pm');
    expect(formatOrderDate('2026-11-23T13:35:00.000Z')).toBe('23 Nov 2026, 7:05 pm');
  });

  it('says midnight and noon as 12, and crosses the date where India does, not where UTC does', () => {
    // 18:30 UTC on 1 Jan is midnight of 2 Jan in India.
    expect(formatIndiaDateTime('2026-01-01T18:30:00.000Z')).toBe('2 Jan 2026, 12:00 am');
    expect(formatIndiaDateTime('2026-01-01T06:30:00.000Z')).toBe('1 Jan 2026, 12:00 pm');
    expect(formatIndiaDateTime('2026-12-31T18:29:00.000Z')).toBe('31 Dec 2026, 11:59 pm');
  });

  it('writes the same as en-IN in Asia/Kolkata, the shopper-side formatter', () => {
    const en = new Intl.DateTimeFormat('en-IN', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Asia/Kolkata',
    });
    for (const iso of ['2026-11-28T09:02:00.000Z', '2026-03-05T23:59:00.000Z', '2027-07-14T00:00:00.000Z'])
      expect(formatIndiaDateTime(iso)).toBe(en.format(new Date(iso)));
  });

  it('gives nothing for no time, rather than "Invalid Date"', () => {
    expect(formatIndiaDateTime('not a time')).toBe('');
    expect(formatIndiaDayMonth('')).toBe('');
  });

  it('writes calendar dates and day-months day first', () => {
    expect(formatCalendarDate('2026-11-24')).toBe('24 Nov 2026');
    expect(formatCalendarDate('2027-01-01')).toBe('1 Jan 2027');
    expect(formatCalendarDate('not a date')).toBe('not a date');
    expect(formatIndiaDayMonth('2026-11-26T19:00:00.000Z')).toBe('27 Nov');
  });

  it("is what the backups, the backup mail's time and the refund lines say", () => {
    expect(backupTimeText(Date.parse('2026-11-25T09:30:00.000Z'))).toBe('25 Nov 2026, 3:00 pm');
    expect(
      refundLine({
        amount: 450,
        status: 'processed',
        createdAt: '2026-11-26T10:00:00.000Z',
        processedAt: '2026-11-26T19:00:00.000Z',
      }),
    ).toBe('Refund of ₹450 processed on 27 Nov');
  });
});
