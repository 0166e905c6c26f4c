import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { adminApi } from '../../domain/admin.contract.js';
import { adminMessages } from '../../domain/admin-messages.js';
import {
  ADMIN_PAGE_SIZES,
  DEFAULT_PAGE_SIZE,
  PRODUCT_SORTS,
  type ProductSort,
} from '../../domain/admin-queries.js';
import { catalogueApi } from '../../domain/catalogue.contract.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { useConfirm } from './dialogs.js';
import { LoadError, Loading, Pager, Screen } from './ui.js';

const SORT_LABELS: Record<ProductSort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  title: 'Title A–Z',
  'price-asc': 'Price, low to high',
  'price-desc': 'Price, high to low',
};

/**
 * The spec's product table, paged, searched, filtered and sorted by the
 * server (so 10,000 products cost one page). The filters live in the URL:
 * a reload or Back keeps them.
 */
export default function ProductList() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const categoryId = params.get('categoryId') ?? '';
  const sortParam = params.get('sort') ?? 'newest';
  const sort: ProductSort = (PRODUCT_SORTS as readonly string[]).includes(sortParam)
    ? (sortParam as ProductSort)
    : 'newest';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const pageSize = Number(params.get('pageSize')) || DEFAULT_PAGE_SIZE;
  const [text, setText] = useState(q);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const notify = useNotify();
  const adminCall = useAdminCall();
  const confirm = useConfirm();

  const set = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };
  useEffect(() => setText(q), [q]);
  // The pause after typing; Enter cancels it (a late timer would navigate back here after the admin left).
  const pause = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text starts a search.
  useEffect(() => {
    if (text.trim() === q) return;
    pause.current = setTimeout(() => {
      // The router renders a navigation as a transition: this screen can still be mounted after
      // the admin has left (the address bar already says where to), and must not pull them back.
      if (globalThis.location?.pathname === '/product-list') set({ q: text.trim() });
    }, 250);
    return () => clearTimeout(pause.current);
  }, [text]);

  const query = {
    page: String(page),
    pageSize: String(pageSize),
    sort,
    ...(q ? { q } : {}),
    ...(categoryId ? { categoryId } : {}),
  };
  const list = useAdminQuery(adminApi.products, { query }, JSON.stringify(query));
  const categories = useAdminQuery(catalogueApi.getCategories, { token: null }, 'categories');
  const items = list.data?.items ?? [];
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page clears the selection.
  useEffect(() => setSelected(new Set()), [list.data]);

  const removeOne = async (id: number) => {
    if (!(await confirm(messages.productDeleteConfirm, 'Delete'))) return;
    try {
      const res = await adminCall(catalogueApi.deleteProduct, { query: { productID: id } });
      notify(res.sys_message || messages.productDeleted, 'success');
      list.reload();
    } catch (err) {
      notify(serverMessageOr(err, messages.productDeleteNetwork), 'error');
    }
  };
  const removeSelected = async () => {
    const ids = [...selected];
    if (!ids.length || !(await confirm(adminMessages.bulkDeleteConfirm(ids.length), 'Delete'))) return;
    try {
      const res = await adminCall(adminApi.deleteProducts, { body: { productIDs: ids } });
      notify(
        res.data?.deleted.length === 1 ? messages.productDeleted : adminMessages.bulkDeleted(ids.length),
        'success',
      );
      list.reload();
    } catch (err) {
      notify(serverMessageOr(err, messages.productDeleteNetwork), 'error');
    }
  };
  const allChecked = items.length > 0 && items.every((p) => selected.has(p.productID));

  return (
    <Screen
      title="Product List"
      actions={
        <Link to="/add-product" className="btn btn--primary">
          Add Product
        </Link>
      }
    >
      <div className="admin-filters">
        <label className="admin-field">
          <span>Search title or ID</span>
          <input
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              // Enter searches at once instead of waiting for the pause after typing.
              if (e.key !== 'Enter') return;
              clearTimeout(pause.current);
              set({ q: e.currentTarget.value.trim() });
            }}
          />
        </label>
        <label className="admin-field">
          <span>Category</span>
          <select value={categoryId} onChange={(e) => set({ categoryId: e.target.value })}>
            <option value="">All categories</option>
            {categories.data?.map((c) => (
              <option key={c.categoryID} value={c.categoryID}>
                {c.categoryName}
              </option>
            ))}
          </select>
        </label>
        <label className="admin-field">
          <span>Sort</span>
          <select
            value={sort}
            onChange={(e) => set({ sort: e.target.value === 'newest' ? '' : e.target.value })}
          >
            {PRODUCT_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label className="admin-field">
          <span>Per page</span>
          <select value={pageSize} onChange={(e) => set({ pageSize: e.target.value })}>
            {ADMIN_PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn admin-danger" disabled={!selected.size} onClick={removeSelected}>
          Delete selected ({selected.size})
        </button>
      </div>
      {list.error && <LoadError text={list.error} onRetry={list.reload} />}
      {list.loading && !list.data && <Loading />}
      {list.data && (
        <>
          <div className="admin-table-wrap" aria-busy={list.loading}>
            <table className="admin-table admin-table--cards admin-products">
              <thead>
                <tr>
                  <th scope="col" className="admin-table__keep">
                    <input
                      type="checkbox"
                      aria-label="Select every product on this page"
                      checked={allChecked}
                      onChange={() =>
                        setSelected(allChecked ? new Set() : new Set(items.map((p) => p.productID)))
                      }
                    />
                  </th>
                  <th scope="col">Product ID</th>
                  <th scope="col">Categories</th>
                  <th scope="col">Title</th>
                  <th scope="col">Description</th>
                  <th scope="col">Image</th>
                  <th scope="col">Price</th>
                  <th scope="col">Size/Weight</th>
                  <th scope="col">Edit</th>
                  <th scope="col">Delete</th>
                </tr>
              </thead>
              <tbody>
                {items.length === 0 && (
                  <tr>
                    <td colSpan={10} className="empty">
                      {messages.noProductsFound}
                    </td>
                  </tr>
                )}
                {items.map((p) => (
                  <tr key={p.productID}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Select ${p.title}`}
                        checked={selected.has(p.productID)}
                        onChange={() => {
                          const next = new Set(selected);
                          if (next.has(p.productID)) next.delete(p.productID);
                          else next.add(p.productID);
                          setSelected(next);
                        }}
                      />
                    </td>
                    <td data-label="Product ID">{p.productID}</td>
                    <td data-label="Categories">
                      {p.categories.length ? p.categories.map((c) => c.categoryName).join(', ') : '-'}
                    </td>
                    <td data-label="Title" className="admin-products__title">
                      {p.title}
                    </td>
                    <td data-label="Description" className="admin-products__desc">
                      {p.description}
                    </td>
                    <td data-label="Image">
                      <div className="admin-thumbs">
                        {p.images.map((img, i) => (
                          <img
                            key={img.thumb}
                            src={img.thumb}
                            alt={i === 0 ? p.title : `${p.title}, picture ${i + 1}`}
                            width={48}
                            height={48}
                            loading="lazy"
                          />
                        ))}
                      </div>
                    </td>
                    <td data-label="Price">{formatRupees(p.price)}</td>
                    <td data-label="Size/Weight">{p.sizeOrWeight || '-'}</td>
                    <td>
                      <Link
                        to={`/edit-products/${p.productID}`}
                        className="btn"
                        aria-label={`Edit ${p.title}`}
                      >
                        Edit
                      </Link>
                    </td>
                    <td>
                      <button
                        type="button"
                        className="btn admin-danger"
                        onClick={() => removeOne(p.productID)}
                        aria-label={`Delete ${p.title}`}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            label="Product"
            page={list.data.page}
            pageSize={list.data.pageSize}
            total={list.data.total}
            onPage={(n) => set({ page: String(n) })}
          />
        </>
      )}
    </Screen>
  );
}
