/*
 * The shop's stores, apart from domain/shop.ts: only the contact page shows
 * them, and shop.ts is read by the header on the first screen.
 */
/** `lat`/`lon`: where the contact page's map puts each store's marker. */
export const STORES = [
  {
    name: 'Sector 17, Chandigarh',
    address: 'SCO 42, Sector 17-C, Chandigarh 160017',
    lat: 30.7398,
    lon: 76.7827,
  },
  {
    name: 'Sector 35, Chandigarh',
    address: 'SCO 310, Sector 35-B, Chandigarh 160022',
    lat: 30.7225,
    lon: 76.7597,
  },
  { name: 'Phase 7, Mohali', address: 'SCF 55, Phase 7, Mohali, Punjab 160062', lat: 30.7121, lon: 76.7199 },
] as const;
