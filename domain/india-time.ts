/**
 * All calendar arithmetic of the shop, in India time: the wall clock, calendar dates (YYYY-MM-DD),
 * day boundaries and how dates and times read. Time is India's whatever zone the server or the
 * phone runs in: India has one zone (UTC+05:30) and no daylight saving, so a fixed offset is exact
 * and needs no time-zone database.
 */

export const INDIA_OFFSET_MINUTES = 5 * 60 + 30;
const INDIA_OFFSET_MS = INDIA_OFFSET_MINUTES * 60 * 1000;
/** The IANA name of India's zone, for the formatters that take one. */
export const INDIA_TIME_ZONE = 'Asia/Kolkata';
export const DAY_MS = 24 * 60 * 60 * 1000;

/** Sunday first, as `Date#getUTCDay` numbers them. */
export const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// ------------------------------------------------------------------ the clock

/** The wall clock in India at `now`: the date as YYYY-MM-DD and the hour (0-23). */
export function indiaClock(now: Date): { date: string; hour: number; minute: number } {
  const shifted = new Date(now.getTime() + INDIA_OFFSET_MS);
  return {
    date: shifted.toISOString().slice(0, 10),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
  };
}

/** The dates the dashboard and the admin's filters speak of: today and tomorrow in India. */
export function todayAndTomorrow(now: Date): [string, string] {
  const today = indiaClock(now).date;
  return [today, addDays(today, 1)];
}

// ------------------------------------------------------------ calendar dates

/** YYYY-MM-DD plus a number of days, on the calendar (no clock involved). */
export function addDays(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`);
  return new Date(t + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from one YYYY-MM-DD to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** A real calendar date written YYYY-MM-DD (rejects 2026-02-30, which Date.parse would roll over). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const t = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === value;
}

/** 0 (Sunday) to 6 for a YYYY-MM-DD. */
export function weekdayOf(date: string): number {
  return new Date(Date.parse(`${date}T00:00:00Z`)).getUTCDay();
}

// ------------------------------------------------------------ instants and days

/** The instant (ms) a minute of an India calendar date falls on. */
export function indiaInstant(date: string, minute: number): number {
  return Date.parse(`${date}T00:00:00Z`) - INDIA_OFFSET_MS + minute * 60 * 1000;
}

/** Midnight in India (ms since epoch) of the day that contains `now`. */
export function indiaDayStart(now: number): number {
  return Math.floor((now + INDIA_OFFSET_MS) / DAY_MS) * DAY_MS - INDIA_OFFSET_MS;
}

/** The India calendar date (YYYY-MM-DD) of an instant. */
export function indiaDate(at: number): string {
  return new Date(at + INDIA_OFFSET_MS).toISOString().slice(0, 10);
}

/** The India day number (days since 1970-01-01 in India) of an instant; the SQL groups by the same. */
export function indiaDayNumber(at: number): number {
  return Math.floor((at + INDIA_OFFSET_MS) / DAY_MS);
}

/** The calendar date (YYYY-MM-DD) of an India day number. */
export function dateOfIndiaDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** "YYYY-MM-DD" (India) to the first millisecond of that day. */
export function indiaDateStart(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) - INDIA_OFFSET_MS;
}

// ------------------------------------------------------------ how they read

/**
 * An instant as people in India write it, in India time: "28 Nov 2026, 2:32 pm" (what `en-IN`
 * writes, and what the shopper's screens show). Every date and time the admin, the slips and the
 * mails show goes through here, never `toLocaleString` (which follows the server's or the laptop's
 * zone and locale, "Nov 28, 2026 2:32 PM" on a US laptop). A departure from the spec's
 * "MMM d, y h:mm a" for the admin's list: the shop's people read dates day first. Written by hand
 * rather than with Intl so a server built with small-icu writes the same. '' for no time.
 */
export function formatIndiaDateTime(at: string | number): string {
  const d = indiaWallClock(at);
  if (!d) return '';
  const h = d.getUTCHours();
  const hour = h % 12 === 0 ? 12 : h % 12;
  const minute = String(d.getUTCMinutes()).padStart(2, '0');
  return `${dayMonthOf(d)} ${d.getUTCFullYear()}, ${hour}:${minute} ${h < 12 ? 'am' : 'pm'}`;
}

/** When an order was placed: the admin's screens have always called it so (Dashboard, Orders). */
export const formatOrderDate = formatIndiaDateTime;

/** The day and month of an instant in India: "27 Nov" (a refund's day in the shopper's line). */
export function formatIndiaDayMonth(at: string | number): string {
  const d = indiaWallClock(at);
  return d ? dayMonthOf(d) : '';
}

/** A Date whose UTC fields read India's wall clock at `at`; null for no time. */
function indiaWallClock(at: string | number): Date | null {
  const t = typeof at === 'number' ? at : Date.parse(at);
  return Number.isNaN(t) ? null : new Date(t + INDIA_OFFSET_MS);
}

const dayMonthOf = (d: Date) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;

/** An instant in India time as a spreadsheet reads a date and time: "2026-11-23 19:05". */
export function indiaDateTimeAt(at: number): string {
  return new Date(at + INDIA_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ');
}

/** `indiaDateTimeAt` of an ISO time; '' when it is not one. */
export function indiaDateTime(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  return indiaDateTimeAt(t);
}

/** A calendar date (YYYY-MM-DD, a delivery date) in the same way, day first: "24 Nov 2026". */
export function formatCalendarDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  return m && month ? `${Number(m[3])} ${month} ${m[1]}` : date;
}

/** "Tue 24 Nov 2026": a delivery day as shoppers and packers read it. */
export function formatCalendarDay(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return date;
  return `${WEEKDAYS[weekdayOf(date)]} ${Number(m[3])} ${MONTHS[Number(m[2]) - 1]} ${m[1]}`;
}

// ------------------------------------------------------------ the form's date and time

/**
 * An instant as an `<input type="datetime-local">` holds it, in India time: "2026-12-01T10:00".
 * The input has no zone of its own (it would take the laptop's), so the owner always types India's
 * clock whatever the device says. Seconds and milliseconds are written only when the instant has
 * them, so a time read into a form and saved unchanged comes back to the same millisecond.
 * '' for no time, or one the input cannot show (outside the years 0001 to 9999).
 */
export function toIndiaDateTimeInput(at: number | null): string {
  if (at === null || !Number.isFinite(at)) return '';
  const d = new Date(at + INDIA_OFFSET_MS);
  const year = d.getUTCFullYear();
  if (Number.isNaN(year) || year < 1 || year > 9999) return '';
  const iso = d.toISOString();
  if (d.getUTCMilliseconds()) return iso.slice(0, 23);
  return d.getUTCSeconds() ? iso.slice(0, 19) : iso.slice(0, 16);
}

/**
 * The instant (epoch ms) of a `datetime-local` value read as India's clock: "2026-12-01T10:00" is
 * 04:30 UTC that day. NaN when the text is no real date and time (2026-02-30, 24:00), so a form can
 * tell an empty box (no time) from a wrong one.
 */
export function fromIndiaDateTimeInput(value: string): number {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(value.trim());
  if (!m?.[1] || !isCalendarDate(m[1])) return Number.NaN;
  const [hour, minute, second] = [m[2], m[3], m[4] ?? '0'].map(Number) as [number, number, number];
  if (hour > 23 || minute > 59 || second > 59) return Number.NaN;
  const ms = Number((m[5] ?? '0').padEnd(3, '0'));
  return indiaInstant(m[1], hour * 60 + minute) + second * 1000 + ms;
}
