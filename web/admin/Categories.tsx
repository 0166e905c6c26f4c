/**
 * Categories (spec: "Add category" with the list beside it, and the "Categories
 * list" table with delete), plus rename. Messages are the spec's (section 8).
 */
import { type FormEvent, useState } from 'react';
import { adminApi } from '../../domain/admin.contract.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { catalogueApi } from '../../domain/catalogue.contract.js';
import { AddCategorySchema, type Category } from '../../domain/catalogue.js';
import { messages } from '../../domain/messages.js';
import { parseWith } from '../../domain/validation.js';
import { ApiError } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { useConfirm } from './dialogs.js';
import { useLeaveGuardState } from './leave-guard.js';
import { LoadError, Loading, Screen } from './ui.js';

function useCategories() {
  return useAdminQuery(catalogueApi.getCategories, { token: null }, 'categories');
}

/** The spec's add-category rule and texts, for the form and its test. */
export function categoryNameProblem(name: string): string | null {
  const parsed = parseWith(AddCategorySchema, { CategoryName: name });
  return parsed.ok ? null : parsed.message;
}

export function AddCategory() {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [invalid, setInvalid] = useState(false);
  const notify = useNotify();
  const adminCall = useAdminCall();
  const list = useCategories();
  useLeaveGuardState(name.trim() !== '');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = categoryNameProblem(name);
    if (problem) {
      setInvalid(true);
      notify(problem, 'error');
      return;
    }
    setInvalid(false);
    setBusy(true);
    try {
      const res = await adminCall(catalogueApi.addCategory, { body: { CategoryName: name.trim() } });
      notify(res.sys_message || messages.categoryAdded, 'success');
      setName('');
      list.reload();
    } catch (err) {
      notify(
        err instanceof ApiError && !err.offline && err.envelope
          ? `Error: ${err.message}`
          : messages.somethingWentWrongDot,
        'error',
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Screen title="Add Category">
      <div className="admin-split">
        <form className="admin-panel admin-form" onSubmit={submit} noValidate>
          <label className="admin-field">
            <span>Category name</span>
            <input
              value={name}
              maxLength={80}
              onChange={(e) => setName(e.target.value)}
              aria-invalid={invalid || undefined}
              aria-describedby={invalid ? 'category-name-error' : undefined}
            />
          </label>
          {invalid && (
            <p id="category-name-error" className="admin-error">
              {messages.categoryNameRequired}
            </p>
          )}
          <button type="submit" className="btn btn--primary" disabled={busy}>
            Add Category
          </button>
        </form>
        <section className="admin-panel" aria-labelledby="existing-title">
          <h2 id="existing-title">Existing categories</h2>
          {list.error && <LoadError text={list.error} onRetry={list.reload} />}
          {list.loading && !list.data && <Loading />}
          {list.data && list.data.length === 0 && <p className="muted">No categories found</p>}
          <ul className="admin-chips">
            {list.data?.map((c) => (
              <li key={c.categoryID}>{c.categoryName}</li>
            ))}
          </ul>
        </section>
      </div>
    </Screen>
  );
}

export function CategoryList() {
  const list = useCategories();
  const notify = useNotify();
  const adminCall = useAdminCall();
  const confirm = useConfirm();
  const [editing, setEditing] = useState<{ id: number; name: string } | null>(null);
  useLeaveGuardState(editing !== null);

  const remove = async (c: Category) => {
    if (!(await confirm(adminMessages.categoryDeleteConfirm(c.categoryName), 'Delete'))) return;
    try {
      const res = await adminCall(catalogueApi.deleteCategory, { query: { categoryID: c.categoryID } });
      notify(res.sys_message, 'success');
      list.reload();
    } catch (err) {
      notify(
        err instanceof ApiError && !err.offline && err.envelope
          ? `Error: ${err.message}`
          : messages.categoryDeleteFailed,
        'error',
      );
    }
  };
  const rename = async (e: FormEvent) => {
    e.preventDefault();
    if (!editing) return;
    const problem = categoryNameProblem(editing.name);
    if (problem) {
      notify(problem, 'error');
      return;
    }
    try {
      await adminCall(adminApi.renameCategory, {
        params: { id: editing.id },
        body: { CategoryName: editing.name.trim() },
      });
      notify(adminMessages.categoryRenamed, 'success');
      setEditing(null);
      list.reload();
    } catch (err) {
      notify(
        err instanceof ApiError && !err.offline && err.envelope
          ? `Error: ${err.message}`
          : messages.somethingWentWrongDot,
        'error',
      );
    }
  };

  return (
    <Screen title="Category List">
      {list.error && <LoadError text={list.error} onRetry={list.reload} />}
      {list.loading && !list.data && <Loading />}
      {list.data && (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Category ID</th>
                <th scope="col">Category Name</th>
                <th scope="col">Rename</th>
                <th scope="col">Delete</th>
              </tr>
            </thead>
            <tbody>
              {list.data.length === 0 && (
                <tr>
                  <td colSpan={4} className="empty">
                    No categories found
                  </td>
                </tr>
              )}
              {list.data.map((c) => (
                <tr key={c.categoryID}>
                  <td>{c.categoryID}</td>
                  <td>
                    {editing?.id === c.categoryID ? (
                      <form onSubmit={rename} className="admin-inline">
                        <label className="visually-hidden" htmlFor={`rename-${c.categoryID}`}>
                          New name for {c.categoryName}
                        </label>
                        <input
                          id={`rename-${c.categoryID}`}
                          value={editing.name}
                          maxLength={80}
                          onChange={(e) => setEditing({ id: c.categoryID, name: e.target.value })}
                        />
                        <button type="submit" className="btn btn--primary">
                          Save
                        </button>
                        <button type="button" className="btn" onClick={() => setEditing(null)}>
                          Cancel
                        </button>
                      </form>
                    ) : (
                      c.categoryName
                    )}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="btn"
                      onClick={() => setEditing({ id: c.categoryID, name: c.categoryName })}
                      aria-label={`Rename ${c.categoryName}`}
                    >
                      Rename
                    </button>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="btn admin-danger"
                      onClick={() => remove(c)}
                      aria-label={`Delete ${c.categoryName}`}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Screen>
  );
}
