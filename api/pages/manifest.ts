/**
 * The web manifest and the app's icons, from the shop's profile. The build writes no manifest
 * (vite.config.ts, `manifest: false`; the shell links `/manifest.webmanifest`), so what a phone
 * installs is the shop's own name and logo as saved now. The manifest is revalidated on every
 * fetch (`no-cache` with an ETag of its bytes): a changed profile is picked up by the browser's
 * next manifest check. A logo's icons are made once per logo (stem and version) with sharp and
 * kept in memory; their addresses name the logo (stem and version), so each is cached for a year.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { LOGO_VERSION, LOGO_WIDTHS, type Logo } from '../../domain/shop-profile.js';
import {
  BACKGROUND_COLOR,
  BUILT_ICONS,
  LOGO_ICONS,
  logoIconVersion,
  webManifest,
} from '../../domain/web-manifest.js';
import type { MediaStore } from '../images/media-store.js';
import type { PageCache } from './page-cache.js';

type LogoIcon = (typeof LOGO_ICONS)[number];

/**
 * The logo's stored variants, largest first: the widths the image pipeline wrote for the logo's
 * version (`LOGO_WIDTHS` of `domain/shop-profile.ts`, which `logoUrl` reads too).
 */
const sourceWidths = (logo: NonNullable<Logo>): number[] =>
  [...(LOGO_WIDTHS[logo.version] ?? LOGO_WIDTHS[LOGO_VERSION] ?? [])].sort((a, b) => b - a);

/**
 * A maskable icon's safe zone is the circle of 40% of its size around the centre (W3C manifest
 * spec); a logo of any shape fits whole inside the square inscribed in that circle.
 */
export const MASKABLE_SAFE_SIDE = (size: number) => Math.floor(size * 0.8 * Math.SQRT1_2);

const etagOf = (bytes: Buffer | string) =>
  `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  return !!header && header.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`);
}

/** The largest stored variant of the logo; null when none is stored (a logo whose files are gone). */
async function logoSource(media: MediaStore, logo: NonNullable<Logo>): Promise<Buffer | null> {
  for (const width of sourceWidths(logo)) {
    const item = await media.get(`${logo.stem}-${width}.webp`);
    if (item) return item.content;
  }
  return null;
}

/** One icon from the logo: whole and centred on a transparent square, or padded on the shop's background. */
export async function makeIcon(source: Buffer, icon: Pick<LogoIcon, 'size' | 'purpose'>): Promise<Buffer> {
  const { size } = icon;
  if (icon.purpose === 'any') {
    return sharp(source)
      .resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .png()
      .toBuffer();
  }
  const inner = MASKABLE_SAFE_SIDE(size);
  const logo = await sharp(source)
    .resize(inner, inner, { fit: 'contain', background: BACKGROUND_COLOR })
    .flatten({ background: BACKGROUND_COLOR })
    .toBuffer();
  const before = Math.floor((size - inner) / 2);
  const after = size - inner - before;
  return sharp(logo)
    .extend({ top: before, bottom: after, left: before, right: after, background: BACKGROUND_COLOR })
    .png()
    .toBuffer();
}

export function shopManifestRoutes(app: FastifyInstance, cache: PageCache): void {
  const profile = async () => {
    await cache.refresh();
    return cache.profile();
  };

  app.get('/manifest.webmanifest', { schema: { hide: true } }, async (request, reply) => {
    const body = JSON.stringify(webManifest(await profile()));
    const etag = etagOf(body);
    reply.header('etag', etag).header('cache-control', 'no-cache');
    if (matches(request, etag)) return reply.code(304).send();
    return reply.type('application/manifest+json; charset=utf-8').send(body);
  });

  // The icons of one logo at a time: a new logo replaces them (few bytes, made in well under a second).
  let made: { key: string; icons: Map<string, Promise<Buffer | null>> } | null = null;
  const iconOf = (logo: NonNullable<Logo>, icon: LogoIcon): Promise<Buffer | null> => {
    const key = `${logo.stem}@${logo.version}`;
    if (made?.key !== key) made = { key, icons: new Map() };
    const { icons } = made;
    let bytes = icons.get(icon.name);
    if (!bytes) {
      bytes = logoSource(app.media, logo).then((source) => (source ? makeIcon(source, icon) : null));
      icons.set(icon.name, bytes);
      bytes.then(
        (b) => b ?? icons.delete(icon.name),
        () => icons.delete(icon.name),
      );
    }
    return bytes;
  };

  const builtFallback = (icon: LogoIcon) =>
    BUILT_ICONS.find((b) => b.purpose === icon.purpose && b.sizes === `${icon.size}x${icon.size}`)?.src ??
    '/icons/icon-512.png';

  for (const icon of LOGO_ICONS) {
    app.get<{ Querystring: { v?: string } }>(
      `/icons/${icon.name}`,
      { schema: { hide: true } },
      async (request, reply: FastifyReply) => {
        const { logo } = await profile();
        const bytes = logo ? await iconOf(logo, icon) : null;
        if (!logo || !bytes) {
          // No logo (or its files are gone): the build's icon, never a broken picture.
          if (logo)
            request.log.warn({ stem: logo.stem }, 'the logo has no stored picture to make icons from');
          return reply.header('cache-control', 'no-cache').redirect(builtFallback(icon), 302);
        }
        // The address names the logo: that one never changes; any other is revalidated.
        const current = request.query.v === logoIconVersion(logo);
        const etag = etagOf(bytes);
        reply
          .header('etag', etag)
          .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'no-cache');
        if (matches(request, etag)) return reply.code(304).send();
        return reply.type('image/png').send(bytes);
      },
    );
  }
}
