/**
 * Makes the app icons from one drawing (a flower over a cake tier on the
 * brand colour), so they stay consistent. Run once after changing the
 * drawing: `npx tsx scripts/make-icons.ts`; the PNGs are committed.
 * The drawing is pure shapes, no text, so no font is needed to render it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const BRAND = '#7b2d43';
const CREAM = '#fff8f4';
const PETAL = '#f6c9d0';

/** The mark, drawn in a 100 x 100 box; `scale` shrinks it into the maskable safe zone. */
function drawing(scale: number, rounded: boolean): string {
  const petals = Array.from({ length: 6 }, (_, i) => {
    const a = (i * Math.PI) / 3;
    const cx = 50 + Math.cos(a) * 11;
    const cy = 34 + Math.sin(a) * 11;
    return `<circle cx="${cx.toFixed(2)}" cy="${cy.toFixed(2)}" r="8" fill="${PETAL}"/>`;
  }).join('');
  const offset = (100 - 100 * scale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" role="img" aria-label="Bakery &amp; Blooms">
  <title>Bakery &amp; Blooms</title>
  <rect width="100" height="100" rx="${rounded ? 18 : 0}" fill="${BRAND}"/>
  <g transform="translate(${offset} ${offset}) scale(${scale})">
    ${petals}
    <circle cx="50" cy="34" r="6" fill="${CREAM}"/>
    <rect x="24" y="56" width="52" height="24" rx="5" fill="${CREAM}"/>
    <path d="M24 64 q6.5 6 13 0 t13 0 t13 0 t13 0" stroke="${PETAL}" stroke-width="3" fill="none"/>
    <rect x="18" y="80" width="64" height="5" rx="2.5" fill="${CREAM}"/>
  </g>
</svg>`;
}

const out = path.resolve('web/public');
mkdirSync(path.join(out, 'icons'), { recursive: true });

async function png(svg: string, size: number, file: string): Promise<void> {
  await sharp(Buffer.from(svg), { density: (72 * size) / 100 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(path.join(out, file));
}

await png(drawing(1, true), 192, 'icons/icon-192.png');
await png(drawing(1, true), 512, 'icons/icon-512.png');
// Maskable: full-bleed background, the mark inside the central 80% safe zone.
await png(drawing(0.72, false), 512, 'icons/maskable-512.png');
await png(drawing(0.85, false), 180, 'apple-touch-icon.png');
writeFileSync(path.join(out, 'favicon.svg'), drawing(1, true));
console.log('icons written to web/public');
