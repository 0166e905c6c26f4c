/**
 * Settings → Delivery areas: where the shop delivers, by pincode. The cities delivered (their
 * pincodes and charges, and the line every page tells shoppers), the pincodes with a filter, one
 * pincode added, edited or removed, and many pasted as `pincode,city,state,charge` lines. The rules
 * are domain/delivery-areas.ts's: the form checks with them before sending so every problem shows
 * at its field, and a paste's bad lines are named on the device and nothing is sent.
 */
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { deliveryAreasApi } from '../../domain/delivery-areas.contract.js';
import {
  areaCities,
  chargeRangeText,
  type DeliveryArea,
  deliveryAreasText,
  parseAreaLines,
} from '../../domain/delivery-areas.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { slotsApi } from '../../domain/slots.contract.js';
import type { DeliverySlot } from '../../domain/slots.js';
import { ApiError, serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { useConfirm } from './dialogs.js';
import { useLeaveGuardState } from './leave-guard.js';
import {
  type AreaField,
  areaRefusal,
  areaRequest,
  areaValues,
  EMPTY_AREA,
  filterAreas,
  settingsTexts as t,
} from './settings-forms.js';
import { FormFoot, LoadError, Loading, Screen } from './ui.js';
import { useRecordForm } from './useRecordForm.js';

/** The slots column: "All", or the names of the area's slots (an id no slot has any more, by number). */
function slotsText(area: DeliveryArea, slots: readonly DeliverySlot[]): string {
  if (area.slotIDs === null) return t.allSlots;
  return area.slotIDs.map((id) => slots.find((s) => s.slotID === id)?.name ?? `#${id}`).join(', ');
}

/** Cities in the order shoppers read them, each city's pincodes in order. */
function inCityOrder(areas: readonly DeliveryArea[]): DeliveryArea[] {
  const order = areaCities(areas).map((c) => `${c.state}/${c.city}`);
  const rank = (a: DeliveryArea) => order.indexOf(`${a.state}/${a.city}`);
  return [...areas].sort((a, b) => rank(a) - rank(b) || a.pincode.localeCompare(b.pincode));
}

export default function DeliveryAreas() {
  const areas = useAdminQuery(deliveryAreasApi.list, {}, 'delivery-areas');
  const slots = useAdminQuery(slotsApi.adminList, {}, 'delivery-slots');
  const adminCall = useAdminCall();
  const notify = useNotify();
  const confirm = useConfirm();
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [filter, setFilter] = useState('');
  // One guard for the screen: the open form and the paste box each say whether they hold unsaved text.
  const [formDirty, setFormDirty] = useState(false);
  const [pasteDirty, setPasteDirty] = useState(false);
  useLeaveGuardState(formDirty || pasteDirty);
  const filterBox = useRef<HTMLInputElement>(null);
  // A city picked above shows its pincodes below: focus takes a phone's owner down to them.
  const pickCity = (city: string) => {
    setFilter(city);
    filterBox.current?.focus();
  };
  const list = areas.data ?? [];
  const slotList = slots.data?.slots ?? [];
  const shown = useMemo(() => inCityOrder(filterAreas(list, filter)), [list, filter]);

  const remove = async (a: DeliveryArea) => {
    if (!(await confirm(t.removeConfirm(a), 'Remove'))) return;
    try {
      const res = await adminCall(deliveryAreasApi.remove, { params: { pincode: a.pincode } });
      notify(res.sys_message, 'success');
      if (editing === a.pincode) {
        setFormDirty(false);
        setEditing(null);
      }
      areas.reload();
    } catch (err) {
      notify(serverMessageOr(err, messages.somethingWentWrongDot), 'error');
    }
  };

  return (
    <Screen
      title={t.areasTitle}
      actions={
        <button type="button" className="btn btn--primary" onClick={() => setEditing('new')}>
          {t.addPincode}
        </button>
      }
    >
      {areas.error && <LoadError text={areas.error} onRetry={areas.reload} />}
      {slots.error && <LoadError text={slots.error} onRetry={slots.reload} />}
      {areas.loading && !areas.data && <Loading />}
      {editing !== null && areas.data && (
        <AreaForm
          key={editing}
          area={editing === 'new' ? null : (list.find((a) => a.pincode === editing) ?? null)}
          areas={list}
          slots={slotList}
          onDirty={setFormDirty}
          onDone={(saved) => {
            setFormDirty(false);
            setEditing(null);
            if (saved) areas.reload();
          }}
        />
      )}
      {areas.data && (
        <>
          <div className="admin-split">
            <Cities areas={list} onPick={pickCity} />
            <PasteAreas onDone={areas.reload} onDirty={setPasteDirty} />
          </div>
          <section className="admin-panel" aria-labelledby="areas-pincodes-title">
            <h2 id="areas-pincodes-title">{t.pincodesHeading}</h2>
            <div className="admin-filters admin-areas-filter">
              <label className="admin-field">
                <span>{t.filterLabel}</span>
                <input
                  ref={filterBox}
                  type="search"
                  value={filter}
                  onChange={(e) => setFilter(e.target.value)}
                  aria-describedby="areas-shown"
                />
              </label>
              <p id="areas-shown" className="muted admin-areas__count" aria-live="polite">
                {t.shown(shown.length, list.length)}
              </p>
            </div>
            {list.length === 0 ? (
              <p className="muted">{t.noAreas}</p>
            ) : shown.length === 0 ? (
              <p className="muted">{t.noMatch(filter.trim())}</p>
            ) : (
              <div className="admin-table-wrap">
                <table className="admin-table admin-areas">
                  <thead>
                    <tr>
                      <th scope="col">Pincode</th>
                      <th scope="col">City</th>
                      <th scope="col">State</th>
                      <th scope="col">Charge</th>
                      <th scope="col">Slots</th>
                      <th scope="col">Same-day</th>
                      <th scope="col">Actions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map((a) => (
                      <tr key={a.pincode} data-testid="area-row">
                        <td data-label="Pincode">
                          <strong>{a.pincode}</strong>
                        </td>
                        <td data-label="City">{a.city}</td>
                        <td data-label="State">{a.state}</td>
                        <td data-label="Charge">{formatRupees(a.charge)}</td>
                        <td data-label="Slots">{slotsText(a, slotList)}</td>
                        <td data-label="Same-day">{a.sameDay ? 'Yes' : 'No'}</td>
                        <td>
                          <div className="admin-moves">
                            <button
                              type="button"
                              className="btn"
                              onClick={() => setEditing(a.pincode)}
                              aria-label={`Edit ${a.pincode}`}
                            >
                              Edit
                            </button>
                            <button
                              type="button"
                              className="btn admin-danger"
                              onClick={() => remove(a)}
                              aria-label={`Remove ${a.pincode}`}
                            >
                              Remove
                            </button>
                          </div>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </Screen>
  );
}

/** The cities delivered, as shoppers read them; a city's name filters the pincodes to it. */
function Cities({ areas, onPick }: { areas: readonly DeliveryArea[]; onPick(city: string): void }) {
  const cities = areaCities(areas);
  if (cities.length === 0) return null;
  return (
    <section className="admin-panel" aria-labelledby="areas-cities-title">
      <h2 id="areas-cities-title">{t.citiesHeading}</h2>
      <p className="admin-areas__line">
        <span className="muted">{t.shoppersRead}: </span>“{deliveryAreasText(areas)}”
      </p>
      <div className="admin-table-wrap">
        <table className="admin-table admin-areas-cities">
          <thead>
            <tr>
              <th scope="col">City</th>
              <th scope="col">State</th>
              <th scope="col">Pincodes</th>
              <th scope="col">Charge</th>
            </tr>
          </thead>
          <tbody>
            {cities.map((c) => (
              <tr key={`${c.state}/${c.city}`}>
                <td>
                  <button
                    type="button"
                    className="btn btn--link"
                    onClick={() => onPick(c.city)}
                    aria-label={`Show the pincodes of ${c.city}`}
                  >
                    {c.city}
                  </button>
                </td>
                <td>{c.state}</td>
                <td>{c.pincodes.length}</td>
                <td>{chargeRangeText(areas.filter((a) => a.city === c.city && a.state === c.state))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** A field's label, input and its problem, the problem named to readers through aria-describedby. */
function Field({
  label,
  problem,
  id,
  children,
}: {
  label: string;
  problem: string | undefined;
  id: string;
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  return (
    <div className="admin-field">
      <label htmlFor={id}>
        <span>{label}</span>
      </label>
      {children({
        id,
        ...(problem ? { 'aria-invalid': true, 'aria-describedby': `${id}-problem` } : {}),
      })}
      {problem && (
        <p id={`${id}-problem`} className="admin-error">
          {problem}
        </p>
      )}
    </div>
  );
}

/** The form's fields in the order they stand: the first problem is the one focused. */
const AREA_FORM_FIELDS: readonly AreaField[] = ['pincode', 'city', 'state', 'charge', 'slotIDs'];

function AreaForm({
  area,
  areas,
  slots,
  onDirty,
  onDone,
}: {
  area: DeliveryArea | null;
  areas: readonly DeliveryArea[];
  slots: readonly DeliverySlot[];
  onDirty(dirty: boolean): void;
  onDone(saved: boolean): void;
}) {
  const { f, set, update, problems, formProblem, busy, id, form, save } = useRecordForm({
    start: area ? areaValues(area) : EMPTY_AREA,
    fields: AREA_FORM_FIELDS,
    firstInput: 'input:not([readonly])',
    onDirty,
  });
  const adminCall = useAdminCall();
  const notify = useNotify();
  // Retired slots are offered to no one; one an area still names stays ticked so saving keeps it.
  const offered = slots.filter((s) => !s.retired || f.slotIDs.includes(s.slotID));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save(
      areaRequest(f, area ? 'edit' : 'add', areas),
      async (request) => {
        const res = await adminCall(deliveryAreasApi.put, {
          params: { pincode: request.pincode },
          body: request.body,
        });
        notify(res.sys_message, 'success');
        onDone(true);
      },
      (err) => areaRefusal(err, messages.somethingWentWrongDot),
    );
  };

  return (
    <form
      ref={form}
      className="admin-panel admin-area-form"
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      noValidate
    >
      <h2 id={`${id}-title`}>{area ? `Edit ${area.pincode}` : 'Add a pincode'}</h2>
      <div className="admin-row">
        <Field label="Pincode" problem={problems.pincode} id={`${id}-pincode`}>
          {(p) => (
            <input
              {...p}
              value={f.pincode}
              inputMode="numeric"
              autoComplete="off"
              maxLength={6}
              readOnly={area !== null}
              onChange={(e) => set('pincode', e.target.value)}
            />
          )}
        </Field>
        <Field label="City" problem={problems.city} id={`${id}-city`}>
          {(p) => (
            <input {...p} value={f.city} maxLength={60} onChange={(e) => set('city', e.target.value)} />
          )}
        </Field>
        <Field label="State" problem={problems.state} id={`${id}-state`}>
          {(p) => (
            <input {...p} value={f.state} maxLength={60} onChange={(e) => set('state', e.target.value)} />
          )}
        </Field>
        <Field label="Delivery charge (₹)" problem={problems.charge} id={`${id}-charge`}>
          {(p) => (
            <input
              {...p}
              type="number"
              min={0}
              step={1}
              inputMode="numeric"
              value={f.charge}
              onChange={(e) => set('charge', e.target.value)}
            />
          )}
        </Field>
      </div>
      <label className="admin-check">
        <input type="checkbox" checked={f.sameDay} onChange={(e) => set('sameDay', e.target.checked)} />{' '}
        Same-day delivery (today’s date is offered here, before the slots’ cut-offs)
      </label>
      <fieldset
        className="admin-area-slots"
        id={`${id}-slotIDs`}
        tabIndex={-1}
        aria-invalid={problems.slotIDs ? true : undefined}
        aria-describedby={problems.slotIDs ? `${id}-slotIDs-problem` : undefined}
      >
        <legend>Delivery slots</legend>
        <label className="admin-check">
          <input
            type="radio"
            name={`${id}-all`}
            checked={f.allSlots}
            onChange={() => set('allSlots', true)}
          />{' '}
          {t.everySlot}
        </label>
        <label className="admin-check">
          <input
            type="radio"
            name={`${id}-all`}
            checked={!f.allSlots}
            onChange={() => set('allSlots', false)}
          />{' '}
          {t.onlySlots}
        </label>
        {!f.allSlots && (
          <div className="admin-checks admin-area-slots__pick">
            {offered.map((s) => (
              <label key={s.slotID} className="admin-check">
                <input
                  type="checkbox"
                  checked={f.slotIDs.includes(s.slotID)}
                  onChange={(e) =>
                    update((old) => ({
                      ...old,
                      slotIDs: e.target.checked
                        ? [...old.slotIDs, s.slotID]
                        : old.slotIDs.filter((x) => x !== s.slotID),
                    }))
                  }
                />{' '}
                {s.name}
                {s.retired ? ' (retired)' : ''}
              </label>
            ))}
          </div>
        )}
        {problems.slotIDs && (
          <p id={`${id}-slotIDs-problem`} className="admin-error">
            {problems.slotIDs}
          </p>
        )}
      </fieldset>
      <FormFoot
        problem={formProblem}
        busy={busy}
        submit={area ? t.saveArea : t.addPincode}
        onCancel={() => onDone(false)}
      />
    </form>
  );
}

/** The paste: every line checked here first; only a whole, good paste is sent. */
function PasteAreas({ onDone, onDirty }: { onDone(): void; onDirty(dirty: boolean): void }) {
  const [text, setText] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const adminCall = useAdminCall();
  const notify = useNotify();
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const dirty = text.trim() !== '';
  useEffect(() => onDirty(dirty), [dirty, onDirty]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseAreaLines(text);
    if (!parsed.ok) {
      setProblems(parsed.errors);
      box.current?.focus();
      return;
    }
    setProblems([]);
    setBusy(true);
    try {
      const res = await adminCall(deliveryAreasApi.paste, { body: { lines: text } });
      // "Added 12 pincodes, changed 3.": the server's count, lines that changed nothing left out.
      notify(res.sys_message, 'success');
      setText('');
      onDone();
    } catch (err) {
      // The server names every bad line itself; its message repeats the first, so the lines are enough.
      const lines = linesOf(err);
      setProblems(lines.length ? lines : [serverMessageOr(err, messages.somethingWentWrongDot)]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="admin-panel" onSubmit={submit} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`}>{t.pasteHeading}</h2>
      <div className="admin-field">
        <label htmlFor={`${id}-lines`}>
          <span>Lines of pincode,city,state,charge</span>
        </label>
        <p id={`${id}-help`} className="muted admin-help">
          {t.pasteHelp}
        </p>
        <textarea
          ref={box}
          id={`${id}-lines`}
          rows={6}
          value={text}
          spellCheck={false}
          placeholder={'160062,Mohali,Punjab,150\n134109,Panchkula,Haryana,300'}
          aria-invalid={problems.length ? true : undefined}
          aria-describedby={problems.length ? `${id}-help ${id}-problems` : `${id}-help`}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      {problems.length > 0 && (
        <div id={`${id}-problems`} className="admin-error" role="alert">
          <ul className="admin-paste-problems">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
        {t.pasteButton}
      </button>
    </form>
  );
}

/** A refused paste may name its bad lines in the envelope's data (`errors`), besides its message. */
function linesOf(err: unknown): string[] {
  const data = err instanceof ApiError ? err.envelope?.data : null;
  if (!data || typeof data !== 'object' || !('errors' in data) || !Array.isArray(data.errors)) return [];
  return data.errors.filter((x): x is string => typeof x === 'string');
}
