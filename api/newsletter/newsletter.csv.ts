import { csvFile } from '../../domain/csv.js';
import { indiaDateTimeAt } from '../../domain/india-time.js';

export const SUBSCRIBER_CSV_HEADER = [
  'Email',
  'Asked (India time)',
  'Confirmed (India time)',
  'Unsubscribe link',
] as const;

/** "2026-11-27 15:30" in India: a spreadsheet reads it as a date and time. */
function indiaTime(at: number | null): string {
  if (at === null) return '';
  return indiaDateTimeAt(at);
}

/**
 * The list as a spreadsheet opens it: UTF-8 with a byte-order mark (without it Excel reads the
 * file in the machine's code page and mangles any address outside ASCII), CRLF lines, cells
 * through `csvCell` (`csvFile`, the orders' export's rule too). Each row's unsubscribe link is for the mail tool the shop sends with: every
 * mail to the list must carry one.
 */
export function subscribersCsv(
  rows: readonly { email: string; created_at: number; confirmed_at: number | null; unsubscribe: string }[],
): string {
  return csvFile(
    SUBSCRIBER_CSV_HEADER,
    rows.map((r) => [r.email, indiaTime(r.created_at), indiaTime(r.confirmed_at), r.unsubscribe]),
  );
}
