import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  checkDeliveryDate,
  earliestDeliveryDate,
  isValidPincode,
  latestDeliveryDate,
} from '../../domain/delivery.js';
import { addDays, indiaClock, isCalendarDate } from '../../domain/india-time.js';

// 12:29 UTC is 17:59 in India (UTC+05:30); 12:30 UTC is 18:00.
const at1759Ist = new Date('2026-11-23T12:29:00Z');
const at1800Ist = new Date('2026-11-23T12:30:00Z');

describe('same-day cut-off at 6 PM India time', () => {
  it('reads the India wall clock whatever the zone', () => {
    expect(indiaClock(at1759Ist)).toEqual({ date: '2026-11-23', hour: 17, minute: 59 });
    expect(indiaClock(at1800Ist)).toEqual({ date: '2026-11-23', hour: 18, minute: 0 });
  });
  it('gives the same cut-off in a process running in any time zone', () => {
    // A child process per zone, since a running process's zone is fixed at its start.
    const module = new URL('../../domain/delivery.ts', import.meta.url).href;
    const script =
      `import { earliestDeliveryDate } from '${module}';` +
      "console.log(JSON.stringify([earliestDeliveryDate(new Date('2026-11-23T12:29:00Z'))," +
      "earliestDeliveryDate(new Date('2026-11-23T12:30:00Z'))]));";
    for (const TZ of ['UTC', 'America/Los_Angeles', 'Asia/Kolkata', 'Pacific/Kiritimati']) {
      const out = execFileSync(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '--eval', script],
        {
          env: { ...process.env, TZ },
          encoding: 'utf8',
        },
      );
      expect(JSON.parse(out), TZ).toEqual(['2026-11-23', '2026-11-24']);
    }
  });
  it('allows today at 17:59 IST', () => {
    expect(earliestDeliveryDate(at1759Ist)).toBe('2026-11-23');
    expect(checkDeliveryDate('2026-11-23', at1759Ist)).toEqual({ ok: true });
  });
  it('moves to tomorrow at 18:00 IST', () => {
    expect(earliestDeliveryDate(at1800Ist)).toBe('2026-11-24');
    expect(checkDeliveryDate('2026-11-23', at1800Ist)).toEqual({ ok: false, reason: 'too-early' });
    expect(checkDeliveryDate('2026-11-24', at1800Ist)).toEqual({ ok: true });
  });
  it('uses the India date when UTC is still on the previous day', () => {
    // 20:00 UTC on the 22nd is 01:30 on the 23rd in India.
    expect(earliestDeliveryDate(new Date('2026-11-22T20:00:00Z'))).toBe('2026-11-23');
  });
  it('crosses month and year ends', () => {
    expect(earliestDeliveryDate(new Date('2026-12-31T13:00:00Z'))).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });
  it('refuses dates in the past, too far ahead, or not on the calendar', () => {
    expect(checkDeliveryDate('2026-11-22', at1759Ist)).toEqual({ ok: false, reason: 'too-early' });
    expect(checkDeliveryDate(latestDeliveryDate(at1759Ist), at1759Ist)).toEqual({ ok: true });
    expect(checkDeliveryDate(addDays(latestDeliveryDate(at1759Ist), 1), at1759Ist)).toEqual({
      ok: false,
      reason: 'too-late',
    });
    expect(checkDeliveryDate('2026-02-30', at1759Ist)).toEqual({ ok: false, reason: 'invalid' });
    expect(isCalendarDate('23/11/2026')).toBe(false);
    expect(isCalendarDate('2026-11-23T00:00:00Z')).toBe(false);
  });
});

describe('pincode', () => {
  it('is exactly 6 digits', () => {
    expect(isValidPincode('160062')).toBe(true);
    expect(isValidPincode('16006')).toBe(false);
    expect(isValidPincode('1600621')).toBe(false);
    expect(isValidPincode('16006a')).toBe(false);
    expect(isValidPincode('060062')).toBe(false);
  });
});
