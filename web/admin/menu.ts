/**
 * The admin sidebar, the breadcrumbs and the page title, all read from the screens' handles
 * (screens.tsx), so a screen names itself once. The shop's own groups and links (DESIGN.md
 * departure 8: the template's demo entries are dropped).
 */
import { matchRoutes } from 'react-router-dom';
import { adminMessages } from '../../domain/admin-messages.js';
import { shopName } from '../shop-name.js';
import { type AdminHandle, adminScreens } from './screens.js';

export interface MenuItem {
  title: string;
  path: string;
  /** A two-letter mark shown when the sidebar is collapsed. */
  mark: string;
}
export interface MenuGroup {
  title: string;
  items: MenuItem[];
}

/** The way back to the shop, last in the sidebar: a link out of the area, not one of its screens. */
const OTHER: MenuGroup = {
  title: 'Other',
  items: [{ title: 'Back to the shop', path: '/home', mark: 'Sh' }],
};

function menuOf(screens: typeof adminScreens): MenuGroup[] {
  const groups: MenuGroup[] = [];
  for (const { path, handle } of screens) {
    if ('under' in handle) continue;
    const item = { title: handle.title, path, mark: handle.mark };
    const group = groups.find((g) => g.title === handle.group);
    if (group) group.items.push(item);
    else groups.push({ title: handle.group, items: [item] });
  }
  return [...groups, OTHER];
}

/** Groups in the order they first appear in the table, entries in theirs. */
export const ADMIN_MENU: MenuGroup[] = menuOf(adminScreens);

export interface Crumb {
  title: string;
  path?: string;
}

/** The area's home: the first crumb of every other screen. */
const HOME: Required<Crumb> = { title: 'Dashboard', path: '/dashboard' };
const homeHandle = adminScreens.find((s) => s.path === HOME.path)?.handle;

function entryAt(path: string): { group: MenuGroup; item: MenuItem } | null {
  for (const group of ADMIN_MENU) {
    const item = group.items.find((i) => i.path === path);
    if (item) return { group, item };
  }
  return null;
}

/**
 * Dashboard / group / entry (/ the record), from the screen's handle (and the path's id, for a
 * screen of one record); the dashboard alone at the dashboard. The crumb without a link is the
 * screen itself.
 */
export function crumbsOf(handle: AdminHandle | undefined, id = ''): Crumb[] {
  if (!handle) return [HOME];
  if (!('under' in handle)) {
    const here = { title: handle.title };
    return handle === homeHandle ? [here] : [HOME, { title: handle.group }, here];
  }
  const list = entryAt(handle.under);
  if (!list) return [HOME];
  const { title, path } = list.item;
  return [HOME, { title: list.group.title }, { title, path }, { title: handle.title(id) }];
}

/** The breadcrumbs of a path outside the router: matched against the screens as the router matches it. */
export function breadcrumbs(pathname: string): Crumb[] {
  const match = matchRoutes(adminScreens, pathname)?.at(-1);
  return crumbsOf(match?.route.handle, match?.params.id);
}

/** "{screen} | {suffix}": the last crumb when it is the screen itself, Welcome when there is none. */
export function titleOf(crumbs: Crumb[]): string {
  const last = crumbs.at(-1);
  return `${last && last.path === undefined ? last.title : adminMessages.defaultTitle} | ${adminMessages.titleSuffix(shopName())}`;
}

export function pageTitle(pathname: string): string {
  return titleOf(breadcrumbs(pathname));
}
