import { describe, expect, it } from 'vitest';
import { subscribersCsv } from '../../api/newsletter/newsletter.csv.js';
import { csvCell } from '../../domain/csv.js';
import { type CsvOrder, ordersCsv } from '../../domain/orders-csv.js';

/**
 * Every CSV the shop writes goes through one cell rule (`csvCell`): always quoted, and a cell that
 * starts with = + - @ is defused. Read here as a spreadsheet reads it with whatever separator the
 * locale picks (`,` `;` or a tab): quotes are honoured, so an address such as
 * `Flat 1;=1+1;@SUM(2+2)` stays one cell and no cell starts a formula.
 */
const ATTACK = 'Flat 1;=1+1;@SUM(2+2)';

/** RFC 4180 as spreadsheets apply it, with any separator: a quote opens and closes quoted text, `""` is a quote. */
function cellsOf(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

const formula = (cell: string) => /^[=+\-@]/.test(cell.trimStart());

const order: CsvOrder = {
  orderID: 7,
  status: 'placed',
  nextStatuses: ['confirmed', 'cancelled'],
  userEmail: 'eve@example.test',
  customerName: '-2+3',
  customerEmail: 'eve@example.test',
  customerPhone: '9876543210',
  customerAddress: ATTACK,
  city: 'Mohali',
  state: 'Punjab',
  pincode: '160062',
  subtotal: 700,
  deliveryCharge: 150,
  discount: 0,
  totalAmount: 850,
  paymentMethod: 'Cash on Delivery',
  orderDate: '2026-11-23T13:35:00.000Z',
  deliveryDate: '2026-11-24',
  deliverySlot: null,
  slotCharge: 0,
  items: [
    {
      productName: 'Cake',
      productTitle: 'Cake',
      variationName: null,
      variationValue: '',
      unitPrice: 700,
      quantity: 1,
      productImage: '',
      photoID: null,
    },
  ],
};

describe('the CSV cell', () => {
  it('quotes every cell, numbers and plain words too, and doubles quotes', () => {
    expect(csvCell(ATTACK)).toBe(`"${ATTACK}"`);
    expect(csvCell('Mohali')).toBe('"Mohali"');
    expect(csvCell(850)).toBe('"850"');
    expect(csvCell('')).toBe('""');
    expect(csvCell('12 "Rose" Lane, Phase 7')).toBe('"12 ""Rose"" Lane, Phase 7"');
  });

  it('keeps the guard: a cell starting with = + - @ (or a tab or CR) starts with a quote mark', () => {
    for (const s of ['=1+1', '+1', '-2+3', '@SUM(2+2)', '\t=1', '\r=1']) expect(csvCell(s)).toBe(`"'${s}"`);
  });

  it('leaves no formula in the orders export, whatever separator the spreadsheet splits on', () => {
    const csv = ordersCsv([order], { origin: 'https://shop.example' });
    const [, row] = csv.slice(1).split('\r\n');
    for (const separator of [',', ';', '\t']) {
      const cells = cellsOf(row ?? '', separator);
      expect(cells.filter(formula), `split on ${JSON.stringify(separator)}`).toEqual([]);
    }
    const cells = cellsOf(row ?? '', ',');
    expect(cells[7]).toBe(ATTACK);
    expect(cells[4]).toBe("'-2+3");
  });

  it('leaves no formula in the newsletter export either (the same rule)', () => {
    const csv = subscribersCsv([
      { email: '=1+1;@x@example.test', created_at: 0, confirmed_at: null, unsubscribe: 'https://s/u#t' },
    ]);
    const [header, row] = csv.slice(1).split('\r\n');
    expect(header).toBe('"Email","Asked (India time)","Confirmed (India time)","Unsubscribe link"');
    for (const separator of [',', ';', '\t'])
      expect(cellsOf(row ?? '', separator).filter(formula), separator).toEqual([]);
  });
});
