/**
 * The installed app's web manifest, made by the server from the shop's profile
 * (`api/pages/manifest.ts`), so a shop's own name, short name and logo are what a phone installs:
 * the build writes no manifest of its own (vite.config.ts, `manifest: false`), and the shell
 * links `/manifest.webmanifest`, which the server answers.
 */
import { SITE_DESCRIPTION } from './page-head.js';
import type { ShopProfile } from './shop-profile.js';

/** The shop's colours: the theme (the bar above an installed app) and its splash screen's background. */
export const THEME_COLOR = '#7b2d43';
export const BACKGROUND_COLOR = '#fff8f4';

export interface ManifestIcon {
  src: string;
  sizes: string;
  type: 'image/png';
  purpose: 'any' | 'maskable';
}

/** The icons the build ships (`web/public/icons`), for a shop without a logo. */
export const BUILT_ICONS: readonly ManifestIcon[] = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
];

/**
 * The icons made from a logo. Each address names the logo (its stem: a new upload is a new stem)
 * and its pipeline version, `?v=<stem>.<version>`, so a new logo is a new address and an icon
 * may be cached for good.
 */
export const LOGO_ICONS = [
  { name: 'shop-192.png', size: 192, purpose: 'any' },
  { name: 'shop-512.png', size: 512, purpose: 'any' },
  { name: 'shop-maskable-512.png', size: 512, purpose: 'maskable' },
] as const;

/** The `v` an icon's address carries for this logo. */
export function logoIconVersion(logo: { stem: string; version: number }): string {
  return `${logo.stem}.${logo.version}`;
}

export function logoIcons(logo: { stem: string; version: number }): ManifestIcon[] {
  return LOGO_ICONS.map((icon) => ({
    src: `/icons/${icon.name}?v=${logoIconVersion(logo)}`,
    sizes: `${icon.size}x${icon.size}`,
    type: 'image/png',
    purpose: icon.purpose,
  }));
}

export function webManifest(profile: Pick<ShopProfile, 'name' | 'shortName' | 'tagline' | 'logo'>) {
  return {
    id: '/',
    name: profile.name,
    short_name: profile.shortName,
    // Installed apps keep this text for months: where and when the shop delivers is said by the
    // pages from the delivery areas, which the admin changes, so none of it is written here.
    description: profile.tagline || `${SITE_DESCRIPTION.replace(/\.$/, '')} from ${profile.name}.`,
    lang: 'en-IN',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    categories: ['food', 'shopping'],
    icons: profile.logo ? logoIcons(profile.logo) : [...BUILT_ICONS],
  };
}
