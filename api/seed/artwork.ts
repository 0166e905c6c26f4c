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

/** What a flower product shows, read from its title ("Purple Orchids Bunch": orchids, purple). */
export type Bloom = 'rose' | 'lily' | 'orchid' | 'sunflower' | 'gerbera' | 'carnation' | 'tulip';
const BLOOMS: [RegExp, Bloom][] = [
  [/sunflower/i, 'sunflower'],
  [/orchid/i, 'orchid'],
  [/lil(y|ies)/i, 'lily'],
  [/rose/i, 'rose'],
  [/gerbera/i, 'gerbera'],
  [/carnation/i, 'carnation'],
  [/tulip/i, 'tulip'],
];
const COLOURS: [RegExp, string][] = [
  [/\bred\b/i, '#c9184a'],
  [/\bpink\b/i, '#ff8fab'],
  [/\byellow\b/i, '#ffd60a'],
  [/\bwhite\b/i, '#fbfaf5'],
  [/\bpurple\b/i, '#9d4edd'],
  [/\bblue\b/i, '#4361ee'],
];
/** Every bloom a title names, in the order named ("Roses and Lilies Basket": roses, then lilies). */
export function bloomsOf(title: string): Bloom[] {
  const found = BLOOMS.map(([re, b]) => ({ b, at: title.search(re) }))
    .filter((x) => x.at >= 0)
    .sort((a, z) => a.at - z.at)
    .map((x) => x.b);
  return found.length ? found : ['gerbera'];
}
function colourOf(title: string): string | null {
  return COLOURS.find(([re]) => re.test(title))?.[1] ?? null;
}
/** A bloom's own colours when the title names none: sunflowers are yellow, lilies white, orchids purple. */
const NATURAL: Record<Bloom, string[]> = {
  rose: ['#c9184a', '#e5383b', '#ff8fab'],
  lily: ['#fbfaf5', '#ffe5ec'],
  orchid: ['#9d4edd', '#c77dff', '#e0aaff'],
  sunflower: ['#ffc300', '#ffd60a'],
  gerbera: ['#ff5d8f', '#ffd60a', '#ff8c42', '#e63946', '#ffffff'],
  carnation: ['#ff8fab', '#e5383b', '#ffccd5'],
  tulip: ['#e63946', '#ffd60a', '#ff8fab'],
};

function shade(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const ch = (v: number) => Math.max(0, Math.min(255, Math.round(v * (1 + amount))));
  const r = ch((n >> 16) & 255);
  const g = ch((n >> 8) & 255);
  const b = ch(n & 255);
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

function rose(x: number, y: number, size: number, colour: string, turn: number): string {
  const dark = shade(colour, -0.3);
  const rings = [1, 0.72, 0.46, 0.24]
    .map(
      (k, i) =>
        `<ellipse cx="${x}" cy="${y}" rx="${size * 0.55 * k}" ry="${size * 0.5 * k}" fill="${i % 2 ? dark : colour}" transform="rotate(${turn + i * 35} ${x} ${y})"/>`,
    )
    .join('');
  return `${rings}<path d="M${x - size * 0.12} ${y} q${size * 0.12} -${size * 0.16} ${size * 0.22} 0" stroke="${colour}" stroke-width="${size * 0.05}" fill="none"/>`;
}

function lily(x: number, y: number, size: number, colour: string, turn: number): string {
  const edge = colour === '#fbfaf5' ? '#d8d2c4' : shade(colour, -0.25);
  const petals = Array.from({ length: 6 }, (_, i) => {
    const a = turn + i * 60;
    return `<path d="M${x} ${y} q${size * 0.28} -${size * 0.5} 0 -${size * 1.05} q-${size * 0.28} ${size * 0.55} 0 ${size * 1.05}z" fill="${colour}" stroke="${edge}" stroke-width="2" transform="rotate(${a.toFixed(1)} ${x} ${y})"/>`;
  }).join('');
  const stamens = Array.from({ length: 5 }, (_, i) => {
    const a = ((turn + i * 72) * Math.PI) / 180;
    const ex = x + Math.cos(a) * size * 0.45;
    const ey = y + Math.sin(a) * size * 0.45;
    return `<path d="M${x} ${y} L${ex.toFixed(1)} ${ey.toFixed(1)}" stroke="#6a994e" stroke-width="2"/><ellipse cx="${ex.toFixed(1)}" cy="${ey.toFixed(1)}" rx="${size * 0.07}" ry="${size * 0.04}" fill="#bc4749"/>`;
  }).join('');
  return `${petals}<path d="M${x} ${y} l0 -${size * 0.6}" stroke="#f4d35e" stroke-width="${size * 0.08}" opacity="0.6" transform="rotate(${turn} ${x} ${y})"/>${stamens}`;
}

function orchid(x: number, y: number, size: number, colour: string): string {
  const light = shade(colour, 0.35);
  const s = size;
  return `<ellipse cx="${x}" cy="${y - s * 0.5}" rx="${s * 0.16}" ry="${s * 0.5}" fill="${light}"/>
<ellipse cx="${x}" cy="${y - s * 0.5}" rx="${s * 0.16}" ry="${s * 0.5}" fill="${light}" transform="rotate(125 ${x} ${y})"/>
<ellipse cx="${x}" cy="${y - s * 0.5}" rx="${s * 0.16}" ry="${s * 0.5}" fill="${light}" transform="rotate(-125 ${x} ${y})"/>
<ellipse cx="${x - s * 0.38}" cy="${y - s * 0.12}" rx="${s * 0.38}" ry="${s * 0.3}" fill="${colour}" transform="rotate(-25 ${x - s * 0.38} ${y - s * 0.12})"/>
<ellipse cx="${x + s * 0.38}" cy="${y - s * 0.12}" rx="${s * 0.38}" ry="${s * 0.3}" fill="${colour}" transform="rotate(25 ${x + s * 0.38} ${y - s * 0.12})"/>
<path d="M${x - s * 0.22} ${y + s * 0.05} q${s * 0.22} ${s * 0.55} ${s * 0.44} 0 q-${s * 0.22} -${s * 0.12} -${s * 0.44} 0z" fill="${shade(colour, -0.35)}"/>
<circle cx="${x}" cy="${y}" r="${s * 0.1}" fill="#fff3b0"/>`;
}

function sunflower(x: number, y: number, size: number, colour: string, turn: number): string {
  const petals = Array.from({ length: 18 }, (_, i) => {
    const a = turn + i * 20;
    return `<ellipse cx="${x}" cy="${y - size * 0.62}" rx="${size * 0.13}" ry="${size * 0.36}" fill="${i % 2 ? colour : shade(colour, -0.08)}" transform="rotate(${a.toFixed(1)} ${x} ${y})"/>`;
  }).join('');
  const seeds = Array.from({ length: 10 }, (_, i) => {
    const a = i * 2.4;
    const r = size * 0.06 * Math.sqrt(i + 1);
    return `<circle cx="${(x + Math.cos(a) * r).toFixed(1)}" cy="${(y + Math.sin(a) * r).toFixed(1)}" r="${size * 0.03}" fill="#2b1a0e"/>`;
  }).join('');
  return `${petals}<circle cx="${x}" cy="${y}" r="${size * 0.36}" fill="#5c3a1e"/>${seeds}`;
}

function carnation(x: number, y: number, size: number, colour: string, turn: number): string {
  const ring = (r: number, fill: string, t: number) => {
    const pts = Array.from({ length: 28 }, (_, i) => {
      const a = (i / 28) * Math.PI * 2 + t;
      const rr = r * (i % 2 ? 0.84 : 1);
      return `${(x + Math.cos(a) * rr).toFixed(1)},${(y + Math.sin(a) * rr).toFixed(1)}`;
    }).join(' ');
    return `<polygon points="${pts}" fill="${fill}"/>`;
  };
  const t = (turn * Math.PI) / 180;
  return (
    ring(size * 0.6, colour, t) +
    ring(size * 0.42, shade(colour, -0.15), t + 0.1) +
    ring(size * 0.24, colour, t + 0.2)
  );
}

function tulip(x: number, y: number, size: number, colour: string): string {
  const s = size;
  const dark = shade(colour, -0.2);
  return `<path d="M${x - s * 0.42} ${y - s * 0.45} q0 ${s * 0.8} ${s * 0.42} ${s * 0.8} q${s * 0.42} 0 ${s * 0.42} -${s * 0.8} l-${s * 0.2} ${s * 0.25} l-${s * 0.22} -${s * 0.35} l-${s * 0.22} ${s * 0.35}z" fill="${colour}"/>
<path d="M${x} ${y - s * 0.1} q-${s * 0.2} ${s * 0.25} 0 ${s * 0.45} q${s * 0.2} -${s * 0.2} 0 -${s * 0.45}z" fill="${dark}" opacity="0.5"/>`;
}

function gerbera(x: number, y: number, size: number, colour: string, turn: number): string {
  const petals = Array.from({ length: 16 }, (_, i) => {
    const a = turn + i * 22.5;
    return `<ellipse cx="${x}" cy="${y - size * 0.52}" rx="${size * 0.11}" ry="${size * 0.38}" fill="${colour}" transform="rotate(${a.toFixed(1)} ${x} ${y})"/>`;
  }).join('');
  return `${petals}<circle cx="${x}" cy="${y}" r="${size * 0.24}" fill="#3d2b1f"/><circle cx="${x}" cy="${y}" r="${size * 0.12}" fill="#f4a261"/>`;
}

function bloom(kind: Bloom, x: number, y: number, size: number, colour: string, turn: number): string {
  switch (kind) {
    case 'rose':
      return rose(x, y, size, colour, turn);
    case 'lily':
      return lily(x, y, size, colour, turn);
    case 'orchid':
      return orchid(x, y, size, colour);
    case 'sunflower':
      return sunflower(x, y, size, colour, turn);
    case 'carnation':
      return carnation(x, y, size, colour, turn);
    case 'tulip':
      return tulip(x, y, size, colour);
    case 'gerbera':
      return gerbera(x, y, size, colour, turn);
  }
}

/**
 * A bouquet of the blooms its title names, in the colour it names (or the
 * bloom's own colours): "Sunflower Bouquet" shows sunflowers, "White Lilies
 * Bouquet" white lilies. A basket holds them in a woven basket, a heart
 * arrangement sets them in a heart; otherwise a paper cone wraps them.
 */
function bouquet(p: Palette, r: () => number, title: string, cx = 320, scale = 1): string {
  const kinds = bloomsOf(title);
  const named = colourOf(title);
  const heart = /heart/i.test(title);
  const basket = /basket/i.test(title);
  const base = 560;
  const count = heart ? 22 : kinds.includes('sunflower') ? 5 : kinds.includes('orchid') ? 7 : 9;
  const heads = Array.from({ length: count }, (_, i) => {
    let fx: number;
    let fy: number;
    if (heart) {
      const t = (i / count) * Math.PI * 2;
      fx = cx + 16 * Math.sin(t) ** 3 * 11 * scale;
      fy =
        250 - (13 * Math.cos(t) - 5 * Math.cos(2 * t) - 2 * Math.cos(3 * t) - Math.cos(4 * t)) * 11 * scale;
    } else {
      const ring = i === 0 ? 0 : i < 5 ? 1 : 2;
      const a = (i / 4) * Math.PI * 2 + r() * 0.4;
      fx = cx + Math.cos(a) * ring * (kinds[0] === 'sunflower' ? 90 : 62) * scale;
      fy = 230 + Math.sin(a) * ring * 40 * scale - (2 - ring) * 14;
    }
    const kind = kinds[i % kinds.length] as Bloom;
    const colours = named && kind === kinds[0] ? [named] : NATURAL[kind];
    const colour = colours[i % colours.length] ?? p.top;
    const size = (kind === 'sunflower' ? 78 : kind === 'orchid' ? 56 : 48) + r() * 12;
    return { kind, fx, fy, colour, size: (heart ? size * 0.85 : size) * scale, turn: r() * 60 };
  });
  const stems = heart
    ? ''
    : heads
        .map(
          (h) =>
            `<path d="M${cx} ${base - 60 * scale} Q${(cx + h.fx) / 2} 380 ${h.fx.toFixed(1)} ${h.fy.toFixed(1)}" stroke="#3a7d44" stroke-width="${6 * scale}" fill="none"/>`,
        )
        .join('');
  const leaves = Array.from({ length: heart ? 0 : 6 }, (_, i) => {
    const lx = cx + (i - 2.5) * 50 * scale;
    return `<ellipse cx="${lx}" cy="${330 + r() * 40}" rx="${16 * scale}" ry="${44 * scale}" fill="#4f9d5d" transform="rotate(${(i - 2.5) * 22} ${lx} 340)"/>`;
  }).join('');
  const flowers = heads.map((h) => bloom(h.kind, h.fx, h.fy, h.size, h.colour, h.turn)).join('');
  const wrap = basket
    ? `<path d="M${cx - 170 * scale} 360 h${340 * scale} l-${40 * scale} ${170 * scale} h-${260 * scale}z" fill="#b08968"/>
${Array.from({ length: 5 }, (_, i) => `<path d="M${cx - 165 * scale + i * 8} ${380 + i * 32 * scale} h${330 * scale - i * 16}" stroke="#7f5539" stroke-width="6"/>`).join('')}
<path d="M${cx - 150 * scale} 360 q${150 * scale} -260 ${300 * scale} 0" stroke="#7f5539" stroke-width="12" fill="none"/>`
    : heart
      ? `<path d="M${cx - 120 * scale} 520 h${240 * scale} l-${30 * scale} 30 h-${180 * scale}z" fill="${p.body}"/>`
      : `<path d="M${cx - 150 * scale} 300 L${cx} ${base + 40 * scale} L${cx + 150 * scale} 300 Q${cx} 360 ${cx - 150 * scale} 300z" fill="${p.body}"/>
<path d="M${cx - 150 * scale} 300 L${cx} ${base + 40 * scale} L${cx - 40 * scale} 310z" fill="#000" opacity="0.08"/>
<path d="M${cx - 40 * scale} 470 q40 -30 80 0 q-40 30 -80 0z" fill="${p.top}"/><circle cx="${cx}" cy="470" r="${12 * scale}" fill="${p.top}"/>`;
  return stems + leaves + flowers + wrap;
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

export type PlantKind = 'money' | 'bamboo' | 'jade' | 'snake' | 'peace-lily' | 'palm';
const PLANTS: [RegExp, PlantKind][] = [
  [/money plant|pothos/i, 'money'],
  [/bamboo/i, 'bamboo'],
  [/jade/i, 'jade'],
  [/snake/i, 'snake'],
  [/peace lily/i, 'peace-lily'],
  [/palm/i, 'palm'],
];
export function plantOf(title: string): PlantKind | null {
  return PLANTS.find(([re]) => re.test(title))?.[1] ?? null;
}

/** The foliage of each plant the demo sells, drawn above a pot whose rim is at y = 380. */
function foliage(kind: PlantKind | null, p: Palette, r: () => number): string {
  const green = p.accent[0] ?? '#2d6a4f';
  const light = p.accent[1] ?? '#52b788';
  switch (kind) {
    case 'money': {
      // Trailing vines of heart-shaped leaves, spilling over the pot's rim.
      const vines = [-1, -0.4, 0.4, 1].map((side, v) => {
        const leaves = Array.from({ length: 6 }, (_, i) => {
          const t = i / 5;
          const x = 320 + side * (40 + t * 150);
          const y = 360 - Math.sin(t * Math.PI) * (v % 2 ? 170 : 110) + (t > 0.7 ? (t - 0.7) * 300 : 0);
          const a = side * 40 + r() * 30;
          return `<path d="M${x.toFixed(1)} ${y.toFixed(1)} c-22 -18 -30 -46 -6 -52 c12 -3 6 8 6 8 c0 0 -6 -11 6 -8 c24 6 16 34 -6 52z" fill="${i % 2 ? green : light}" transform="rotate(${a.toFixed(1)} ${x.toFixed(1)} ${y.toFixed(1)})"/>`;
        });
        return `<path d="M320 380 Q${320 + side * 90} ${v % 2 ? 180 : 250} ${320 + side * 190} ${420}" stroke="#40916c" stroke-width="4" fill="none"/>${leaves.join('')}`;
      });
      return vines.join('');
    }
    case 'bamboo': {
      // Two tiers of cut stalks with their nodes, and a few leaves at the top.
      const stalks = Array.from({ length: 7 }, (_, i) => {
        const x = 250 + i * 23;
        const top = i % 2 ? 190 : 130 + r() * 20;
        const nodes = Array.from({ length: 4 }, (_, k) => {
          const y = top + 40 + k * 55;
          return y < 380
            ? `<rect x="${x - 9}" y="${y.toFixed(1)}" width="18" height="5" rx="2" fill="#55a630"/>`
            : '';
        }).join('');
        return `<rect x="${x - 8}" y="${top.toFixed(1)}" width="16" height="${(385 - top).toFixed(1)}" rx="6" fill="#aacc00"/>${nodes}<ellipse cx="${x}" cy="${top.toFixed(1)}" rx="8" ry="3" fill="#80b918"/>`;
      }).join('');
      const leaves = Array.from({ length: 8 }, (_, i) => {
        const x = 250 + (i % 7) * 23;
        const y = (i % 2 ? 190 : 140) + 10;
        const a = (i % 2 ? 1 : -1) * (40 + r() * 30);
        return `<ellipse cx="${x}" cy="${y - 28}" rx="9" ry="30" fill="${green}" transform="rotate(${a.toFixed(1)} ${x} ${y})"/>`;
      }).join('');
      return `<path d="M245 300 h150" stroke="#bc6c25" stroke-width="8"/>${stalks}${leaves}<path d="M240 300 q80 16 160 0" stroke="#d4a373" stroke-width="6" fill="none"/>`;
    }
    case 'jade': {
      // A thick woody trunk with clusters of round, fleshy leaves.
      const branches = [
        [320, 380, 320, 260],
        [320, 300, 250, 220],
        [320, 280, 395, 200],
        [320, 260, 300, 170],
      ];
      const wood = branches
        .map(
          ([x1, y1, x2, y2]) =>
            `<path d="M${x1} ${y1} L${x2} ${y2}" stroke="#7f5539" stroke-width="14" stroke-linecap="round"/>`,
        )
        .join('');
      const pads = branches
        .flatMap(([, , x2, y2]) =>
          Array.from({ length: 6 }, (_, i) => {
            const a = (i / 6) * Math.PI * 2 + r();
            const x = (x2 as number) + Math.cos(a) * 34;
            const y = (y2 as number) + Math.sin(a) * 26;
            return `<ellipse cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" rx="22" ry="15" fill="${i % 2 ? green : light}" stroke="#1b4332" stroke-width="2" transform="rotate(${((a * 180) / Math.PI).toFixed(0)} ${x.toFixed(1)} ${y.toFixed(1)})"/>`;
          }),
        )
        .join('');
      return wood + pads;
    }
    case 'snake': {
      // Tall, stiff, pointed leaves with yellow edges and darker bands.
      return Array.from({ length: 7 }, (_, i) => {
        const x = 250 + i * 23 + r() * 6;
        const h = 200 + r() * 110 - Math.abs(i - 3) * 25;
        const lean = (i - 3) * 7;
        const bands = Array.from({ length: 5 }, (_, k) => {
          const y = 380 - (k + 1) * (h / 6);
          return `<path d="M${(x - 10 + (lean * (380 - y)) / h).toFixed(1)} ${y.toFixed(1)} q10 -8 20 0" stroke="#1b4332" stroke-width="3" fill="none"/>`;
        }).join('');
        return `<path d="M${x - 16} 382 Q${x - 18 + lean / 2} ${380 - h / 2} ${x + lean} ${380 - h} Q${x + 18 + lean / 2} ${380 - h / 2} ${x + 16} 382z" fill="${green}" stroke="#e9c46a" stroke-width="4"/>${bands}`;
      }).join('');
    }
    case 'peace-lily': {
      // Broad glossy leaves, and white spathes each around a yellow spadix.
      const leaves = Array.from({ length: 8 }, (_, i) => {
        const a = -75 + i * 21 + r() * 6;
        return `<path d="M320 380 q-40 -90 0 -190 q40 100 0 190z" fill="${i % 2 ? '#1b4332' : green}" transform="rotate(${a.toFixed(1)} 320 380)"/><path d="M320 380 L320 200" stroke="#95d5b2" stroke-width="2" transform="rotate(${a.toFixed(1)} 320 380)"/>`;
      }).join('');
      const flowers = [
        [270, 170],
        [360, 140],
        [330, 220],
      ]
        .map(
          ([x, y]) =>
            `<path d="M320 380 Q${x} ${(y as number) + 100} ${x} ${(y as number) + 40}" stroke="#40916c" stroke-width="4" fill="none"/><path d="M${x} ${(y as number) + 45} q-30 -40 0 -85 q30 45 0 85z" fill="#fbfaf5" stroke="#d8e2dc" stroke-width="2"/><rect x="${(x as number) - 4}" y="${(y as number) - 10}" width="8" height="34" rx="4" fill="#f4d35e"/>`,
        )
        .join('');
      return leaves + flowers;
    }
    case 'palm': {
      // Arching fronds of many thin leaflets.
      return Array.from({ length: 7 }, (_, i) => {
        const a = -70 + i * 23 + r() * 6;
        const leaflets = Array.from({ length: 11 }, (_, k) => {
          const y = 370 - (k + 1) * 19;
          const len = 46 - Math.abs(k - 5) * 4;
          return `<path d="M320 ${y} l-${len} ${-len * 0.35}" stroke="${k % 2 ? green : light}" stroke-width="5" stroke-linecap="round"/><path d="M320 ${y} l${len} ${-len * 0.35}" stroke="${k % 2 ? light : green}" stroke-width="5" stroke-linecap="round"/>`;
        }).join('');
        return `<g transform="rotate(${a.toFixed(1)} 320 390)"><path d="M320 385 Q326 260 320 150" stroke="#6a994e" stroke-width="5" fill="none"/>${leaflets}</g>`;
      }).join('');
    }
    case null:
      return Array.from({ length: 9 }, (_, i) => {
        const a = -80 + i * 20 + r() * 8;
        const len = 120 + r() * 70;
        return `<ellipse cx="320" cy="${380 - len / 2}" rx="${26 + r() * 10}" ry="${len / 2}" fill="${i % 2 ? green : light}" transform="rotate(${a.toFixed(1)} 320 380)"/>`;
      }).join('');
  }
}

function plant(p: Palette, r: () => number, title: string): string {
  const kind = plantOf(title);
  const ceramic = /ceramic/i.test(title);
  return `${foliage(kind, p, r)}
<path d="M220 380 h200 l-26 160 h-148z" fill="${p.body}"/>
<rect x="208" y="370" width="224" height="34" rx="10" fill="${p.top}"/>
${ceramic ? `<path d="M232 440 h176 M238 480 h164" stroke="#fff" stroke-opacity="0.5" stroke-width="6"/>` : '<path d="M236 420 h168" stroke="#fff" stroke-opacity="0.25" stroke-width="8"/>'}
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

/** The cake of a combo, in the colours of the cake its title names. */
function comboCake(title: string): { body: string; top: string } {
  if (/red velvet/i.test(title)) return { body: '#a4161a', top: '#fdf6f0' };
  if (/black forest/i.test(title)) return { body: '#4b2a1e', top: '#fff8f0' };
  if (/pineapple/i.test(title)) return { body: '#f9d949', top: '#fffdf2' };
  if (/truffle/i.test(title)) return { body: '#4a2c1d', top: '#2d1810' };
  return { body: '#7b4a2e', top: '#4a2a19' };
}

/** The SVG for one product picture; the title says which flowers or plant it shows. */
export function artwork(kind: ArtKind, palette: Palette, seed: number, title = ''): string {
  const r = rng(seed);
  switch (kind) {
    case 'cake':
      return frame(palette, cake(palette, r, 320, 1.3));
    case 'flowers':
      return frame(palette, bouquet(palette, r, title));
    case 'chocolate':
      return frame(palette, chocolateBox(palette, r));
    case 'plant':
      return frame(palette, plant(palette, r, title));
    case 'gift':
      return frame(palette, gift(palette, r));
    case 'combo':
      return frame(
        palette,
        `${bouquet(palette, r, title, 440, 0.7)}${cake({ ...palette, ...comboCake(title) }, r, 250, 0.75)}`,
      );
  }
}
