/**
 * The shop profile's own endpoint beside `PUT /admin/settings {profile}`: the logo's upload. The
 * upload only makes the pictures; the logo is the profile's once the profile is saved with the
 * answer, so a picture chosen and then abandoned never shows.
 */
import * as v from 'valibot';
import { endpoint } from './contract.js';
import { LogoSchema } from './shop-profile.js';

export const shopProfileApi = {
  uploadLogo: endpoint({
    method: 'POST',
    path: '/admin/shop-profile/logo',
    summary:
      'Upload the shop’s logo (multipart: one "logo" image, JPEG, PNG, WebP, AVIF or GIF, at most 5 MB; a square picture is expected): answers {stem, version} to save as the profile’s logo',
    tag: 'Admin',
    access: 'admin',
    response: v.unwrap(LogoSchema),
    refusals: [413, 415],
    status: 201,
  }),
} as const;
