import type { RouteEntry } from '../app/routes.js';

/** Checkout and order success (login-guarded). */
export const checkoutRoutes: RouteEntry[] = [];
