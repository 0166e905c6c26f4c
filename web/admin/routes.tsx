/**
 * The admin area as one layout route (AdminArea.tsx: the admin-guarded layout) whose children are
 * the screens (screens.tsx), each a lazy route. Its code is never in a shopper's chunks: the app
 * patches this route in from its lazy `Elsewhere` chunk, and everything past the table is behind a
 * `lazy`. The layout stays mounted while the admin moves between screens (the sidebar's state, an
 * open dropdown, the top bar's search).
 */
import type { RouteObject } from 'react-router-dom';
import { screen } from '../app/lazy-screen.js';
import { adminScreens } from './screens.js';

export const adminRoutes = {
  lazy: screen(() => import('./AdminArea.js')),
  children: adminScreens,
} satisfies RouteObject;
