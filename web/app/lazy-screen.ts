/** A `lazy` route whose module's default export is the screen (`{ path, lazy: screen(() => import(...)) }`). */
import type { ComponentType } from 'react';

export const screen = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});
