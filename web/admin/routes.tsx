import type { RouteEntry } from '../app/routes.js';

/** The admin area (admin-guarded); its code is never in a shopper's chunks. */
export const adminRoutes: RouteEntry[] = [];
