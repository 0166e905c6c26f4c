/** Every CSV file the shop writes (orders, the mailing list) is made here: one cell rule, one layout. */

/**
 * Excel reads a CSV without a byte order mark in the machine's own code page, and ₹, Hindi and
 * emoji come out as mojibake; with it, as UTF-8.
 */
export const CSV_BOM = '\uFEFF';

/**
 * One CSV cell (RFC 4180). Always quoted: a spreadsheet
 * that splits on `;` (or a tab) in the shopper's locale would otherwise cut an address such as
 * `Flat 1;=1+1` into cells of its own, one starting with `=`, out of reach of the guard below. The
 * guard still defuses a cell starting with = + - @ (a formula once the quotes are read).
 */
export function csvCell(value: string | number): string {
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

/**
 * A whole CSV file: the byte order mark (`CSV_BOM`), a header and rows of cells through `csvCell`,
 * CRLF lines ending with one.
 */
export function csvFile(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const lines = [header, ...rows].map((cells) => cells.map(csvCell).join(','));
  return `${CSV_BOM}${lines.join('\r\n')}\r\n`;
}
