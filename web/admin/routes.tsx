import type { RouteObject } from 'react-router-dom';
import { RequireAdmin } from '../account/guards.js';
import { useStatusSlot } from '../app/App.js';
import { ADMIN_ID_PATHS, ADMIN_PATHS } from './paths.js';

/**
 * The admin area (admin-guarded) as one layout route; its code is never in a shopper's chunks:
 * everything past this file is behind the route's `lazy`. Every admin path is a child of the same
 * layout, so the layout (sidebar state, open dropdowns, a form being typed) stays mounted while the
 * admin moves between screens; the area picks the screen from the path (see AdminArea.tsx).
 */
export const adminRoutes = {
  async lazy() {
    const { default: AdminArea } = await import('./AdminArea.js');
    return {
      Component: () => (
        <>
          {useStatusSlot()}
          <RequireAdmin>
            <AdminArea />
          </RequireAdmin>
        </>
      ),
    };
  },
  children: ADMIN_PATHS.map((p) => ({ path: ADMIN_ID_PATHS.includes(p) ? `${p}/:id` : p })),
} satisfies RouteObject;
