/** The top bar's search: products by title or id, orders by id, email or phone. */
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { adminApi } from '../../domain/admin.contract.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { formatRupees } from '../../domain/money.js';
import { useAdminQuery } from './connection.js';

export function AdminSearch() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const t = setTimeout(() => setQ(text.trim()), 250);
    return () => clearTimeout(t);
  }, [text]);
  const enabled = q.length >= 2;
  const products = useAdminQuery(adminApi.products, { query: { q, pageSize: '5' } }, `p:${q}`, { enabled });
  const orders = useAdminQuery(adminApi.orders, { query: { q, pageSize: '5' } }, `o:${q}`, { enabled });
  useEffect(() => {
    const close = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, []);
  const go = (to: string) => {
    setOpen(false);
    setText('');
    navigate(to);
  };
  const productItems = enabled ? (products.data?.items ?? []) : [];
  const orderItems = enabled ? (orders.data?.items ?? []) : [];
  const count = productItems.length + orderItems.length;
  return (
    <div className="admin-search" ref={box}>
      <search>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) go(`/product-list?q=${encodeURIComponent(text.trim())}`);
          }}
        >
          <label htmlFor="admin-search-input" className="visually-hidden">
            Search products and orders
          </label>
          <input
            id="admin-search-input"
            type="search"
            placeholder="Search here..."
            value={text}
            autoComplete="off"
            onChange={(e) => {
              setText(e.target.value);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setOpen(false);
            }}
            aria-controls={open && enabled ? 'admin-search-results' : undefined}
          />
        </form>
      </search>
      {open && enabled && (
        <div id="admin-search-results" className="admin-search__results">
          <p className="visually-hidden" aria-live="polite">
            {products.loading || orders.loading ? '' : `${count} results`}
          </p>
          {productItems.length > 0 && (
            <>
              <h2>Products</h2>
              <ul>
                {productItems.map((p) => (
                  <li key={p.productID}>
                    <button type="button" onClick={() => go(`/edit-products/${p.productID}`)}>
                      #{p.productID} {p.title} <span className="muted">{formatRupees(p.price)}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
          {orderItems.length > 0 && (
            <>
              <h2>Orders</h2>
              <ul>
                {orderItems.map((o) => (
                  <li key={o.orderID}>
                    <button type="button" onClick={() => go(`/admin-orders/${o.orderID}`)}>
                      #{o.orderID} {o.customerEmail} <span className="muted">{o.status}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
          {!products.loading && !orders.loading && count === 0 && (
            <p className="muted">{adminMessages.noSearchResults}</p>
          )}
        </div>
      )}
    </div>
  );
}
