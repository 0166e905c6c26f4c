/**
 * The admin area's screens: one route each, its `handle` naming it for the sidebar, the breadcrumbs
 * and the page title (menu.ts reads them). Adding a screen is one entry here.
 */
import type { ComponentType } from 'react';
import { useParams } from 'react-router-dom';

export type AdminHandle =
  /** A sidebar entry, listed in its group with the two letters shown when the sidebar is collapsed. */
  | { title: string; group: string; mark: string }
  /** A screen of one record, reached from a list: named from the path's id, under that list's entry. */
  | { title: (id: string) => string; under: string };

export interface AdminScreen {
  path: string;
  handle: AdminHandle;
  lazy(): Promise<{ Component: ComponentType }>;
}

/** The screen is `pick(module)`: every screen's module is a chunk of its own (`admin-*`, never precached). */
const screen =
  <M,>(load: () => Promise<M>, pick: (module: M) => ComponentType) =>
  async () => ({ Component: pick(await load()) });

/** A screen of one record takes the path's id, and starts afresh for another id (the id is its key). */
function withId(Screen: ComponentType<{ id: string }>): ComponentType {
  return function ScreenOfId() {
    const { id } = useParams();
    return id ? <Screen key={id} id={id} /> : null;
  };
}

/**
 * In the sidebar's order: groups in the order they first appear, entries in theirs. The dashboard
 * is the area's home (the first breadcrumb of every other screen).
 */
export const adminScreens: AdminScreen[] = [
  {
    path: '/dashboard',
    handle: { title: 'Dashboard', group: 'Shop', mark: 'Db' },
    lazy: screen(
      () => import('./Dashboard.js'),
      (m) => m.default,
    ),
  },
  {
    path: '/all-admin-orders',
    handle: { title: 'All User Orders', group: 'Orders', mark: 'Or' },
    lazy: screen(
      () => import('./Orders.js'),
      (m) => m.default,
    ),
  },
  {
    path: '/admin-orders/:id',
    handle: { title: (id) => `Order #${id}`, under: '/all-admin-orders' },
    lazy: screen(
      () => import('./OrderDetail.js'),
      (m) => withId(m.default),
    ),
  },
  {
    path: '/add-new-category',
    handle: { title: 'Add Category', group: 'Catalogue', mark: 'AC' },
    lazy: screen(
      () => import('./Categories.js'),
      (m) => m.AddCategory,
    ),
  },
  {
    path: '/category-list',
    handle: { title: 'Category List', group: 'Catalogue', mark: 'CL' },
    lazy: screen(
      () => import('./Categories.js'),
      (m) => m.CategoryList,
    ),
  },
  {
    path: '/add-product',
    handle: { title: 'Add Product', group: 'Catalogue', mark: 'AP' },
    lazy: screen(
      () => import('./ProductForm.js'),
      (m) => m.AddProduct,
    ),
  },
  {
    path: '/product-list',
    handle: { title: 'Product List', group: 'Catalogue', mark: 'PL' },
    lazy: screen(
      () => import('./ProductList.js'),
      (m) => m.default,
    ),
  },
  {
    path: '/edit-products/:id',
    handle: { title: (id) => `Edit Product #${id}`, under: '/product-list' },
    lazy: screen(
      () => import('./ProductForm.js'),
      (m) => withId(m.EditProduct),
    ),
  },
  // The shop's own choices. Delivery Slots keeps its old path, so saved links and bookmarks still work.
  {
    path: '/delivery-areas',
    handle: { title: 'Delivery areas', group: 'Settings', mark: 'DA' },
    lazy: screen(
      () => import('./DeliveryAreas.js'),
      (m) => m.default,
    ),
  },
  {
    path: '/delivery-slots',
    handle: { title: 'Delivery Slots', group: 'Settings', mark: 'DS' },
    lazy: screen(
      () => import('./Slots.js'),
      (m) => m.default,
    ),
  },
  {
    path: '/shop-settings',
    handle: { title: 'Shop settings', group: 'Settings', mark: 'SS' },
    lazy: screen(
      () => import('./ShopSettings.js'),
      (m) => m.default,
    ),
  },
  {
    path: '/coupons',
    handle: { title: 'Coupons', group: 'Settings', mark: 'Cp' },
    lazy: screen(
      () => import('./Coupons.js'),
      (m) => m.default,
    ),
  },
  {
    path: '/shop-profile',
    handle: { title: 'Shop profile', group: 'Settings', mark: 'SP' },
    lazy: screen(
      () => import('./ShopProfile.js'),
      (m) => m.default,
    ),
  },
  {
    path: '/policies',
    handle: { title: 'Policies', group: 'Settings', mark: 'Po' },
    lazy: screen(
      () => import('./Policies.js'),
      (m) => m.default,
    ),
  },
  {
    path: '/backups',
    handle: { title: 'Backups', group: 'Shop data', mark: 'Bk' },
    lazy: screen(
      () => import('./Backups.js'),
      (m) => m.default,
    ),
  },
];
