import { describe, expect, it } from 'vitest';
import { fromIndiaDateTimeInput, toIndiaDateTimeInput } from '../../domain/india-time.js';

/**
 * The owner's date-and-time boxes (a coupon's start and end) hold India's clock whatever zone the
 * laptop or phone is set to: "2026-12-01T10:00" is 04:30 UTC, and back again to the millisecond.
 */
describe('India time in a datetime-local box', () => {
  it('reads a typed date and time as India time', () => {
    expect(fromIndiaDateTimeInput('2026-12-01T10:00')).toBe(Date.UTC(2026, 11, 1, 4, 30));
    // Before 05:30 in India it is still the day before in UTC.
    expect(fromIndiaDateTimeInput('2027-01-01T00:00')).toBe(Date.UTC(2026, 11, 31, 18, 30));
    expect(fromIndiaDateTimeInput('2026-12-01T23:59:30')).toBe(Date.UTC(2026, 11, 1, 18, 29, 30));
    expect(fromIndiaDateTimeInput('2026-12-01T10:00:00.5')).toBe(Date.UTC(2026, 11, 1, 4, 30, 0, 500));
  });

  it('writes an instant as the box holds it, seconds only when there are some', () => {
    expect(toIndiaDateTimeInput(Date.UTC(2026, 11, 1, 4, 30))).toBe('2026-12-01T10:00');
    expect(toIndiaDateTimeInput(Date.UTC(2026, 11, 31, 18, 30))).toBe('2027-01-01T00:00');
    expect(toIndiaDateTimeInput(Date.UTC(2026, 11, 1, 4, 30, 15))).toBe('2026-12-01T10:00:15');
    expect(toIndiaDateTimeInput(Date.UTC(2026, 11, 1, 4, 30, 15, 250))).toBe('2026-12-01T10:00:15.250');
  });

  it('comes back to the same instant', () => {
    for (const at of [
      0,
      Date.UTC(2026, 1, 28, 20, 0),
      Date.UTC(2028, 1, 29, 12, 1, 2, 3),
      1_764_567_890_123,
    ]) {
      expect(fromIndiaDateTimeInput(toIndiaDateTimeInput(at))).toBe(at);
    }
  });

  it('gives nothing for no time, and NaN for a date or time that does not exist', () => {
    expect(toIndiaDateTimeInput(null)).toBe('');
    expect(toIndiaDateTimeInput(Number.NaN)).toBe('');
    expect(toIndiaDateTimeInput(8_640_000_000_000_000)).toBe('');
    for (const bad of [
      '',
      '2026-02-30T10:00',
      '2026-12-01T24:00',
      '2026-12-01T10:60',
      '2026-12-01',
      'soon',
    ]) {
      expect(fromIndiaDateTimeInput(bad)).toBeNaN();
    }
  });
});
