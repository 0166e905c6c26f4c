/**
 * The admin area's paths, as the screens' table (screens.tsx) names them, without the id a screen of
 * one record takes (`/admin-orders`, not `/admin-orders/:id`). No admin path is in a shopper's first
 * screen: the table comes with the lazy `Elsewhere` chunk (the storefront bench checks for them).
 */
import { adminScreens } from './screens.js';

export const ADMIN_PATHS: readonly string[] = adminScreens.map((s) => s.path.replace(/\/:id$/, ''));
