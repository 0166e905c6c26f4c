/**
 * The demo catalogue's pictures, drawn as SVG by the project itself (nothing
 * is downloaded) and rendered by sharp like any upload. Each kind of product
 * has its own illustration; colours come from the product's category and a
 * small per-product variation, so neighbouring cards never look identical.
 * Flat shapes and soft gradients keep the WebP variants far under budget.
 */
export type ArtKind = 'cake' | 'flowers' | 'chocolate' | 'plant' | 'gift' | 'combo';

export interface Palette {
  /** Background gradient, inner and outer. */
  bg: [string, string];
  /** Main body (sponge, wrapping, box, pot). */
  body: string;
  /** Topping, frosting or ribbon. */
  top: string;
  /** Small details: cherries, sprinkles, petals. */
  accent: string[];
  /** Alternative body colours, one per product in turn (gift wraps, pots, bouquet papers). */
  bodies?: string[];
}

const SIZE = 640;

/** A deterministic pseudo-random sequence (mulberry32), so the demo looks the same on every machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function frame(p: Palette, inner: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">
<defs>
  <radialGradient id="bg" cx="50%" cy="40%" r="75%"><stop offset="0" stop-color="${p.bg[0]}"/><stop offset="1" stop-color="${p.bg[1]}"/></radialGradient>
  <linearGradient id="shine" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#fff" stop-opacity="0"/><stop offset="0.5" stop-color="#fff" stop-opacity="0.18"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient>
</defs>
<rect width="${SIZE}" height="${SIZE}" fill="url(#bg)"/>
${inner}
</svg>`;
}

function cake(p: Palette, r: () => number, cx = 320, scale = 1): string {
  const w = 300 * scale;
  const h = 150 * scale;
  const x = cx - w / 2;
  const top = 300 + (1 - scale) * 120;
  const rx = w / 2;
  const ry = 40 * scale;
  const drips = Array.from({ length: 9 }, (_, i) => {
    const dx = x + (i + 0.5) * (w / 9);
    const len = (22 + r() * 40) * scale;
    return `<path d="M${dx - 12 * scale} ${top} q0 ${len} ${12 * scale} ${len} q${12 * scale} 0 ${12 * scale} -${len}z" fill="${p.top}"/>`;
  }).join('');
  const dots = Array.from({ length: 7 }, (_, i) => {
    const a = (i / 7) * Math.PI * 2 + r();
    const dx = cx + Math.cos(a) * rx * 0.62;
    const dy = top + Math.sin(a) * ry * 0.55;
    const c = p.accent[i % p.accent.length];
    return `<circle cx="${dx.toFixed(1)}" cy="${dy.toFixed(1)}" r="${(13 * scale).toFixed(1)}" fill="${c}"/><circle cx="${(dx - 4 * scale).toFixed(1)}" cy="${(dy - 4 * scale).toFixed(1)}" r="${(4 * scale).toFixed(1)}" fill="#fff" opacity="0.6"/>`;
  }).join('');
  const candle =
    r() > 0.4
      ? `<rect x="${cx - 7 * scale}" y="${top - 95 * scale}" width="${14 * scale}" height="${80 * scale}" rx="${4 * scale}" fill="#fbe7ef" stroke="${p.accent[0]}" stroke-width="${3 * scale}"/><ellipse cx="${cx}" cy="${top - 110 * scale}" rx="${10 * scale}" ry="${18 * scale}" fill="#ffb703"/><ellipse cx="${cx}" cy="${top - 105 * scale}" rx="${5 * scale}" ry="${9 * scale}" fill="#fff3b0"/>`
      : '';
  return `<ellipse cx="${cx}" cy="${top + h + 18 * scale}" rx="${rx + 50 * scale}" ry="${ry + 12 * scale}" fill="#f1f1f1" stroke="#d9d9d9" stroke-width="3"/>
<path d="M${x} ${top} v${h} a${rx} ${ry} 0 0 0 ${w} 0 v-${h}z" fill="${p.body}"/>
<path d="M${x} ${top} v${h} a${rx} ${ry} 0 0 0 ${w} 0 v-${h}z" fill="url(#shine)"/>
<rect x="${x}" y="${top + h * 0.45}" width="${w}" height="${10 * scale}" fill="${p.top}" opacity="0.55"/>
<ellipse cx="${cx}" cy="${top}" rx="${rx}" ry="${ry}" fill="${p.top}"/>
${drips}${dots}${candle}`;
}

function flower(
  x: number,
  y: number,
  size: number,
  petal: string,
  centre: string,
  petals: number,
  turn: number,
): string {
  const out: string[] = [];
  for (let i = 0; i < petals; i++) {
    const a = (i / petals) * 360 + turn;
    out.push(
      `<ellipse cx="${x}" cy="${y - size * 0.55}" rx="${size * 0.32}" ry="${size * 0.6}" fill="${petal}" transform="rotate(${a.toFixed(1)} ${x} ${y})"/>`,
    );
  }
  out.push(`<circle cx="${x}" cy="${y}" r="${size * 0.3}" fill="${centre}"/>`);
  return out.join('');
}

function bouquet(p: Palette, r: () => number, cx = 320, scale = 1): string {
  const base = 560;
  const stems = Array.from({ length: 9 }, (_, i) => {
    const tx = cx + (i - 4) * 30 * scale;
    return `<path d="M${cx} ${base - 60 * scale} Q${(cx + tx) / 2} ${380} ${tx} ${250 - r() * 40}" stroke="#3a7d44" stroke-width="${6 * scale}" fill="none"/>`;
  }).join('');
  const leaves = Array.from({ length: 6 }, (_, i) => {
    const lx = cx + (i - 2.5) * 50 * scale;
    return `<ellipse cx="${lx}" cy="${330 + r() * 40}" rx="${16 * scale}" ry="${44 * scale}" fill="#4f9d5d" transform="rotate(${(i - 2.5) * 22} ${lx} 340)"/>`;
  }).join('');
  const heads = Array.from({ length: 9 }, (_, i) => {
    const ring = i === 0 ? 0 : i < 5 ? 1 : 2;
    const a = (i / 4) * Math.PI * 2 + r() * 0.4;
    const fx = cx + Math.cos(a) * ring * 62 * scale;
    const fy = 230 + Math.sin(a) * ring * 40 * scale - (2 - ring) * 14;
    const colour = p.accent[i % p.accent.length] ?? p.top;
    return flower(fx, fy, (48 + r() * 14) * scale, colour, '#ffd166', 6 + Math.floor(r() * 3), r() * 60);
  }).join('');
  const wrap = `<path d="M${cx - 150 * scale} ${300} L${cx} ${base + 40 * scale} L${cx + 150 * scale} ${300} Q${cx} ${360} ${cx - 150 * scale} ${300}z" fill="${p.body}"/>
<path d="M${cx - 150 * scale} ${300} L${cx} ${base + 40 * scale} L${cx - 40 * scale} ${310}z" fill="#000" opacity="0.08"/>
<path d="M${cx - 40 * scale} ${470} q40 -30 80 0 q-40 30 -80 0z" fill="${p.top}"/><circle cx="${cx}" cy="${470}" r="${12 * scale}" fill="${p.top}"/>`;
  return stems + leaves + heads + wrap;
}

function chocolateBox(p: Palette, r: () => number): string {
  const pieces: string[] = [];
  for (let row = 0; row < 3; row++) {
    for (let col = 0; col < 4; col++) {
      const x = 200 + col * 80;
      const y = 280 + row * 80;
      const c = p.accent[(row * 4 + col + Math.floor(r() * 3)) % p.accent.length];
      pieces.push(
        `<circle cx="${x}" cy="${y}" r="30" fill="#5a3e2b"/><circle cx="${x}" cy="${y}" r="24" fill="${c}"/><path d="M${x - 14} ${y - 4} q14 -12 28 0" stroke="#fff" stroke-opacity="0.5" stroke-width="4" fill="none"/>`,
      );
    }
  }
  return `<rect x="130" y="210" width="380" height="300" rx="22" fill="${p.body}"/>
<rect x="150" y="230" width="340" height="260" rx="14" fill="#3b2418"/>
${pieces.join('')}
<rect x="300" y="190" width="40" height="340" fill="${p.top}" opacity="0.9"/>
<path d="M320 200 q-70 -70 -90 -10 q20 40 90 10z M320 200 q70 -70 90 -10 q-20 40 -90 10z" fill="${p.top}"/>
<circle cx="320" cy="200" r="16" fill="${p.top}"/>`;
}

function plant(p: Palette, r: () => number): string {
  const leaves = Array.from({ length: 9 }, (_, i) => {
    const a = -80 + i * 20 + r() * 8;
    const len = 120 + r() * 70;
    return `<ellipse cx="320" cy="${380 - len / 2}" rx="${26 + r() * 10}" ry="${len / 2}" fill="${i % 2 ? p.accent[0] : (p.accent[1] ?? p.accent[0])}" transform="rotate(${a.toFixed(1)} 320 380)"/>`;
  }).join('');
  return `${leaves}
<path d="M220 380 h200 l-26 160 h-148z" fill="${p.body}"/>
<rect x="208" y="370" width="224" height="34" rx="10" fill="${p.top}"/>
<path d="M236 420 h168" stroke="#fff" stroke-opacity="0.25" stroke-width="8"/>
<ellipse cx="320" cy="552" rx="120" ry="14" fill="#000" opacity="0.08"/>`;
}

function gift(p: Palette, r: () => number): string {
  const dots = Array.from({ length: 14 }, () => {
    const x = 180 + r() * 280;
    const y = 300 + r() * 200;
    return `<circle cx="${x.toFixed(0)}" cy="${y.toFixed(0)}" r="9" fill="#fff" opacity="0.35"/>`;
  }).join('');
  return `<rect x="170" y="290" width="300" height="230" rx="12" fill="${p.body}"/>${dots}
<rect x="150" y="240" width="340" height="70" rx="12" fill="${p.body}"/>
<rect x="150" y="240" width="340" height="70" rx="12" fill="#000" opacity="0.08"/>
<rect x="298" y="240" width="44" height="280" fill="${p.top}"/>
<path d="M320 240 q-110 -100 -130 -20 q30 50 130 20z M320 240 q110 -100 130 -20 q-30 50 -130 20z" fill="${p.top}"/>
<circle cx="320" cy="238" r="22" fill="${p.accent[0]}"/>
<ellipse cx="320" cy="530" rx="170" ry="14" fill="#000" opacity="0.08"/>`;
}

/** The SVG for one product picture. */
export function artwork(kind: ArtKind, palette: Palette, seed: number): string {
  const r = rng(seed);
  switch (kind) {
    case 'cake':
      return frame(palette, cake(palette, r, 320, 1.3));
    case 'flowers':
      return frame(palette, bouquet(palette, r));
    case 'chocolate':
      return frame(palette, chocolateBox(palette, r));
    case 'plant':
      return frame(palette, plant(palette, r));
    case 'gift':
      return frame(palette, gift(palette, r));
    case 'combo':
      return frame(
        palette,
        `${bouquet(palette, r, 440, 0.7)}${cake({ ...palette, body: '#7b4a2e', top: '#4a2a19' }, r, 250, 0.75)}`,
      );
  }
}
