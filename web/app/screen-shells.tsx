/**
 * The screens the server's HTML shows before the app's code has run, rendered to static markup by a
 * build step (vite.config.ts, `prerenderScreenShells`) into the build's `.vite/screen-shells.json`;
 * the server writes a page's own inside `#root` (api/pages/screen-shells.ts), and the app's first
 * render replaces it. Only screens that show no data of their own belong here: the shell is then
 * the very words and fields the app renders a moment later, so the page's largest text paints with
 * the HTML instead of after the app's code (a first visit's login was Lighthouse's slowest page:
 * its largest paint waited 1.7 s of code on the bench's phone). Never imported by the app itself.
 */
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import Login from '../account/Login.js';

const at = (path: string, screen: ReactNode) =>
  renderToStaticMarkup(<MemoryRouter initialEntries={[path]}>{screen}</MemoryRouter>);

/**
 * Each shell's markup by its address (lower case, no trailing slash, as the server matches it; the
 * server adds the screen's stylesheets from the build's manifest).
 */
export function renderScreenShells(): Record<string, string> {
  return { '/login': at('/login', <Login />) };
}
