/**
 * How an order line says what was chosen, once for every place that shows a placed order: order
 * success, My Orders, the order page, queued orders, the admin's pages, packing slips and the
 * CSV. A line keeps the option's name ("Weight") and value ("1 kg"); the base option has no name
 * and the product's own size as its value; a product with no size has ''. An old order whose size
 * could not be recovered has null, and says so rather than guess.
 */

export const SIZE_NOT_RECORDED = 'size not recorded';

/** What a line keeps of the option chosen. `variationValue` undefined: a copy made before it was kept. */
export interface LineOption {
  variationName: string | null;
  variationValue?: string | null;
}

/** The size to make ("1 kg"), null for a product with none, or "size not recorded". */
export function lineSize(line: LineOption): string | null {
  if (line.variationValue === undefined || line.variationValue === null) return SIZE_NOT_RECORDED;
  return line.variationValue.trim() || null;
}

/**
 * The option in words: "Weight: 1 kg", "0.5 kg" (the base size), "Weight: size not recorded", or
 * null. A value that already says its unit reads alone: "24 stems", never "Stems: 24 stems".
 */
export function lineOption(line: LineOption): string | null {
  const size = lineSize(line);
  const name = line.variationName?.trim() ?? '';
  if (size === null) return name || null;
  return name && !namesItself(size, name) ? `${name}: ${size}` : size;
}

/** Whether a value holds its option's name as words ("24 stems" of Stems, "6 boxes" of Box). */
function namesItself(value: string, name: string): boolean {
  const words = (s: string) =>
    s
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  // Singular and plural are one unit: "stem", "stems"; "box", "boxes".
  const same = (a: string, b: string) =>
    [a, `${a}s`, `${a}es`].includes(b) || [b, `${b}s`, `${b}es`].includes(a);
  const unit = words(name);
  const said = words(value);
  if (!unit.length) return false;
  return said.some((_, i) => unit.every((u, j) => same(u, said[i + j] ?? '')));
}

/** "Chocolate Truffle Delight (Weight: 1 kg)": the line's one name on the shopper's and admin's screens. */
export function orderLineLabel(line: LineOption & { productName: string }): string {
  const option = lineOption(line);
  return option ? `${line.productName} (${option})` : line.productName;
}

/** "1 x Chocolate Truffle Delight, 1 kg": how the kitchen and the packing slip read a line. */
export function kitchenLine(line: LineOption & { productName: string; quantity: number }): string {
  const size = lineSize(line);
  return `${line.quantity} x ${line.productName}${size ? `, ${size}` : ''}`;
}
