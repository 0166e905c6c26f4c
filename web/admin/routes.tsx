import { lazy } from 'react';
import { RequireAdmin } from '../account/guards.js';
import type { RouteEntry } from '../app/routes.js';
import { ADMIN_ID_PATHS, ADMIN_PATHS } from './paths.js';

/**
 * The admin area (admin-guarded); its code is never in a shopper's chunks:
 * everything past this file is behind `lazy()`. Every admin path renders the
 * same element, so the layout (sidebar state, open dropdowns, a form being
 * typed) stays mounted while the admin moves between screens; the area picks
 * the screen from the path (see AdminArea.tsx).
 */
const AdminArea = lazy(() => import('./AdminArea.js'));

const area = (
  <RequireAdmin>
    <AdminArea />
  </RequireAdmin>
);

export const adminRoutes: RouteEntry[] = ADMIN_PATHS.map((p) => ({
  path: ADMIN_ID_PATHS.includes(p) ? `${p}/:id` : p,
  element: area,
}));
