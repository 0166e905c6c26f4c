import { adminMessages } from '../../domain/admin-messages.js';

/**
 * The admin sidebar: the shop's own groups and links (DESIGN.md departure 8:
 * the template's demo entries are dropped). Breadcrumbs and the page title are
 * built from this one list, so a screen never names itself twice.
 */
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

export const ADMIN_MENU: MenuGroup[] = [
  { title: 'Shop', items: [{ title: 'Dashboard', path: '/dashboard', mark: 'Db' }] },
  {
    title: 'Orders',
    items: [
      { title: 'All User Orders', path: '/all-admin-orders', mark: 'Or' },
      { title: 'Delivery Slots', path: '/delivery-slots', mark: 'DS' },
    ],
  },
  {
    title: 'Catalogue',
    items: [
      { title: 'Add Category', path: '/add-new-category', mark: 'AC' },
      { title: 'Category List', path: '/category-list', mark: 'CL' },
      { title: 'Add Product', path: '/add-product', mark: 'AP' },
      { title: 'Product List', path: '/product-list', mark: 'PL' },
    ],
  },
  { title: 'Shop data', items: [{ title: 'Backups', path: '/backups', mark: 'Bk' }] },
  { title: 'Other', items: [{ title: 'Back to the shop', path: '/home', mark: 'Sh' }] },
];

export interface Crumb {
  title: string;
  path?: string;
}

/** Screens that are not menu entries, under the entry they belong to. */
const CHILDREN: { prefix: string; parent: string; title: (id: string) => string }[] = [
  { prefix: '/edit-products/', parent: '/product-list', title: (id) => `Edit Product #${id}` },
  { prefix: '/admin-orders/', parent: '/all-admin-orders', title: (id) => `Order #${id}` },
];

function findItem(path: string): { group: MenuGroup; item: MenuItem } | null {
  for (const group of ADMIN_MENU) {
    const item = group.items.find((i) => i.path === path);
    if (item) return { group, item };
  }
  return null;
}

/** Dashboard / group / item (/ child), from the menu. */
export function breadcrumbs(pathname: string): Crumb[] {
  const home: Crumb = { title: 'Dashboard', path: '/dashboard' };
  if (pathname === '/dashboard') return [{ title: 'Dashboard' }];
  const child = CHILDREN.find((c) => pathname.startsWith(c.prefix));
  const found = findItem(child ? child.parent : pathname);
  if (!found) return [home];
  const crumbs: Crumb[] = [home, { title: found.group.title }];
  if (child) {
    crumbs.push({ title: found.item.title, path: found.item.path });
    crumbs.push({ title: child.title(decodeURIComponent(pathname.slice(child.prefix.length))) });
  } else crumbs.push({ title: found.item.title });
  return crumbs;
}

/** "{item} | {suffix}", Welcome when the path is not in the menu. */
export function pageTitle(pathname: string): string {
  const crumbs = breadcrumbs(pathname);
  const last = crumbs.length > 1 || pathname === '/dashboard' ? crumbs[crumbs.length - 1]?.title : undefined;
  return `${last ?? adminMessages.defaultTitle} | ${adminMessages.titleSuffix}`;
}
