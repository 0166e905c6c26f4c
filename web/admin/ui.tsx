import type { ReactNode } from 'react';
import { adminMessages } from '../../domain/admin-messages.js';
import { pageCount } from '../../domain/admin-queries.js';
import { NeedsConnection, useOnline } from './connection.js';

/** Pieces every admin screen uses: its frame (heading, offline notice) and a pager. */
export function Screen({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="admin-screen" aria-labelledby="admin-screen-title">
      <div className="admin-screen__head">
        <h1 id="admin-screen-title">{title}</h1>
        {actions}
      </div>
      <NeedsConnection>{children}</NeedsConnection>
    </section>
  );
}

export function LoadError({ text, onRetry }: { text: string; onRetry(): void }) {
  const online = useOnline();
  if (!online) return null;
  return (
    <div className="admin-banner admin-banner--error" role="alert">
      <span>{text}</span>
      <button type="button" className="btn btn--link" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

/** A record form's foot: its form-wide problem, then Save (busy while it saves) and Cancel. */
export function FormFoot({
  problem = '',
  busy,
  submit,
  onCancel,
}: {
  problem?: string;
  busy: boolean;
  submit: string;
  onCancel(): void;
}) {
  return (
    <>
      {problem && (
        <p className="admin-error" role="alert">
          {problem}
        </p>
      )}
      <div className="admin-moves">
        <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
          {submit}
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}

export function Loading({ text = adminMessages.loading }: { text?: string }) {
  return (
    <p className="admin-loading" role="status">
      {text}
    </p>
  );
}

export function Pager({
  page,
  pageSize,
  total,
  onPage,
  label,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage(page: number): void;
  label: string;
}) {
  const pages = pageCount(total, pageSize);
  const first = total ? (page - 1) * pageSize + 1 : 0;
  const last = Math.min(total, page * pageSize);
  return (
    <nav className="admin-pager" aria-label={`${label} pages`}>
      <span>
        {first}–{last} of {total}
      </span>
      <button type="button" className="btn" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-current="page">
        Page {page} of {pages}
      </span>
      <button type="button" className="btn" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
