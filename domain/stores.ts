/*
 * The shop's stores, apart from domain/shop.ts: only the contact page shows
 * them, and shop.ts is read by the header on the first screen.
 */
/**
 * The shop's 2 stores (the spec's "2 stores" in Chandigarh and Mohali; its contact page's third
 * address contradicted that): About us, Contact and the home page's structured data list these.
 * `lat`/`lon`: where the contact page's map puts each store's marker; `postal`: the address
 * in parts, for the home page's structured data (schema.org PostalAddress).
 */
export const STORES = [
  {
    name: 'Sector 17, Chandigarh',
    address: 'SCO 42, Sector 17-C, Chandigarh 160017',
    lat: 30.7398,
    lon: 76.7827,
    postal: { street: 'SCO 42, Sector 17-C', locality: 'Chandigarh', region: 'Chandigarh', code: '160017' },
  },
  {
    name: 'Phase 7, Mohali',
    address: 'SCF 55, Phase 7, Mohali, Punjab 160062',
    lat: 30.7121,
    lon: 76.7199,
    postal: { street: 'SCF 55, Phase 7', locality: 'Mohali', region: 'Punjab', code: '160062' },
  },
] as const;

/**
 * When every store is open, every day of the week (the same-day cut-off of 6 PM is about
 * delivery, not the counter). Search engines show them from the home page's structured data.
 */
export const STORE_HOURS = { opens: '09:00', closes: '21:00' } as const;
