/**
 * How an order's address reads: the typed address, then "City, State PIN" once. Checkout keeps
 * the city, state and pincode in their own fields (the pincode fills them), but shoppers often
 * type them into the address as well ("House 12, Sector 70, Mohali, Punjab 160062"); joining the
 * two printed them twice on the admin's page, My Orders and the slips. The typed address is
 * kept as typed (it is what the shopper wrote); only what it repeats at its end is left out.
 */

export interface AddressParts {
  address: string;
  city: string;
  state: string;
  pincode: string;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A word or phrase as it may be typed at the end of an address: any case, any spacing. */
function endingPattern(phrase: string): RegExp | null {
  const words = phrase.trim().split(/\s+/).filter(Boolean).map(escapeRegExp);
  if (!words.length) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}])${words.join('\\s+')}$`, 'iu');
}

/** "160062" typed as "160 062" too. */
function pincodePattern(pincode: string): RegExp | null {
  const m = /^(\d{3})(\d{3})$/.exec(pincode.trim());
  return m ? new RegExp(`(?<!\\d)${m[1]}\\s?${m[2]}$`, 'u') : endingPattern(pincode);
}

const SEPARATORS = /[\s,;\-–/.]+$/u;

/**
 * The typed address without the city, state, pincode (and "India") it repeats at its end, in any
 * order and case: "House 12, Sector 70, Mohali, Punjab 160062" with Mohali, Punjab, 160062 is
 * "House 12, Sector 70". A word that only contains the city ("Mohali Road") is kept.
 */
export function streetOf(a: AddressParts): string {
  const endings = [
    pincodePattern(a.pincode),
    endingPattern(a.state),
    endingPattern(a.city),
    /\bindia$/iu,
  ].filter((p): p is RegExp => p !== null);
  let rest = a.address.trim().replace(SEPARATORS, '');
  for (let changed = true; changed && rest; ) {
    changed = false;
    for (const p of endings) {
      const cut = rest.replace(p, '').replace(SEPARATORS, '');
      if (cut !== rest) {
        rest = cut;
        changed = true;
      }
    }
  }
  return rest;
}

/** "Mohali, Punjab 160062": the place, from its own fields. */
export function placeOf(a: Omit<AddressParts, 'address'>): string {
  const cityState = [a.city.trim(), a.state.trim()].filter(Boolean).join(', ');
  return [cityState, a.pincode.trim()].filter(Boolean).join(' ');
}

/** The two lines a slip prints: the street as typed (without the repeat) and the place. */
export function addressLines(a: AddressParts): [street: string, place: string] {
  return [streetOf(a), placeOf(a)];
}

/** The whole address on one line, each part once: "House 12, Sector 70, Mohali, Punjab 160062". */
export function addressText(a: AddressParts): string {
  return addressLines(a).filter(Boolean).join(', ');
}
