/** The shop profile's stores: none or several, each its own group of fields; add, remove, reorder. */
import { ProfileField } from './ProfileField.js';
import {
  fieldId,
  MAX_STORES,
  type ProfileProblems,
  STORE_FIELDS,
  type StoreDraft,
  storeDraft,
  profileTexts as t,
} from './profile-forms.js';

/** The list with the store at `from` moved to `to` (a neighbour's place). */
function moved(stores: StoreDraft[], from: number, to: number): StoreDraft[] {
  const copy = [...stores];
  const [store] = copy.splice(from, 1);
  if (store) copy.splice(to, 0, store);
  return copy;
}

export function ShopProfileStores({
  formId,
  stores,
  problems,
  onValue,
  onStores,
}: {
  formId: string;
  stores: StoreDraft[];
  problems: ProfileProblems;
  onValue(path: string, value: string): void;
  /** The list changed shape (a store added, removed or moved); `focus` is a field to focus after. */
  onStores(stores: StoreDraft[], focus?: string): void;
}) {
  const listProblem = problems.stores;
  const helpId = `${formId}-stores-help`;
  return (
    <fieldset
      className="admin-panel admin-profile__group"
      aria-describedby={helpId}
      aria-invalid={listProblem ? true : undefined}
    >
      <legend>{t.stores}</legend>
      <p id={helpId} className="muted admin-help">
        {t.storesHelp}
      </p>
      {listProblem && <p className="admin-error">{listProblem}</p>}
      {stores.length === 0 && <p>{t.noStores}</p>}
      {stores.map((store, i) => {
        const n = i + 1;
        return (
          <fieldset key={store.key} className="admin-profile__store" data-testid="profile-store">
            <legend>{t.store(n)}</legend>
            <div className="admin-profile__fields">
              {STORE_FIELDS.map((spec) => {
                const path = `stores.${i}.${spec.key}`;
                return (
                  <ProfileField
                    key={spec.key}
                    formId={formId}
                    path={path}
                    spec={spec}
                    value={store[spec.key]}
                    problem={problems[path]}
                    onValue={onValue}
                  />
                );
              })}
            </div>
            <div className="admin-profile__store-actions">
              <button
                type="button"
                className="btn"
                disabled={i === 0}
                onClick={() => onStores(moved(stores, i, i - 1))}
              >
                Move <span className="visually-hidden">store {n}</span> up
              </button>
              <button
                type="button"
                className="btn"
                disabled={i === stores.length - 1}
                onClick={() => onStores(moved(stores, i, i + 1))}
              >
                Move <span className="visually-hidden">store {n}</span> down
              </button>
              <button
                type="button"
                className="btn admin-danger"
                onClick={() => onStores(stores.filter((_, j) => j !== i))}
              >
                Remove <span className="visually-hidden">store {n}</span>
              </button>
            </div>
          </fieldset>
        );
      })}
      <button
        type="button"
        className="btn"
        disabled={stores.length >= MAX_STORES}
        onClick={() => onStores([...stores, storeDraft()], fieldId(formId, `stores.${stores.length}.name`))}
      >
        {t.addStore}
      </button>
    </fieldset>
  );
}
