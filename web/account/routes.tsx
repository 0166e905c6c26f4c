import type { RouteEntry } from '../app/routes.js';

/** The shopper's account routes (register, codes, login, reset, profile, My Orders). */
export const accountRoutes: RouteEntry[] = [];
