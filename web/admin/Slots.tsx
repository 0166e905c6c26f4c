/**
 * Delivery slots: the shop's slots (add, edit, retire, offer again)
 * and its closed dates (close with a message, open again). The server checks
 * every field (`SlotInputSchema`) and says what is wrong; this screen turns the
 * API's minutes into times and back. A cut-off is a time on the delivery day
 * or a number of days before it.
 */
import { type FormEvent, useId, useState } from 'react';
import { formatCalendarDay, WEEKDAYS } from '../../domain/india-time.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { slotMessages as m } from '../../domain/slot-messages.js';
import { slotsApi } from '../../domain/slots.contract.js';
import {
  ALL_WEEKDAYS,
  clockLabel,
  type DeliverySlot,
  minuteToTime,
  type SlotInputIn,
  timeToMinute,
  windowLabel,
} from '../../domain/slots.js';
import { serverMessageOr } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { FormFoot, LoadError, Loading, Screen } from './ui.js';

const DAY = 24 * 60;

/** "6 PM on the day", "10 PM, 1 day before". */
export function cutoffText(cutoff: number): string {
  const daysBefore = cutoff < 0 ? Math.ceil(-cutoff / DAY) : 0;
  const time = clockLabel(cutoff + daysBefore * DAY);
  return daysBefore
    ? `${time}, ${daysBefore} ${daysBefore === 1 ? 'day' : 'days'} before`
    : `${time} on the day`;
}

interface FormValues {
  name: string;
  start: string;
  end: string;
  surcharge: string;
  cutoffTime: string;
  daysBefore: string;
  capacity: string;
  weekdays: number[];
  position: string;
}

const EMPTY: FormValues = {
  name: '',
  start: '09:00',
  end: '12:00',
  surcharge: '0',
  cutoffTime: '06:00',
  daysBefore: '0',
  capacity: '',
  weekdays: [...ALL_WEEKDAYS],
  position: '10',
};

function valuesOf(s: DeliverySlot): FormValues {
  const daysBefore = s.cutoff < 0 ? Math.ceil(-s.cutoff / DAY) : 0;
  return {
    name: s.name,
    start: minuteToTime(s.start),
    end: minuteToTime(s.end === DAY ? 0 : s.end),
    surcharge: String(s.surcharge),
    cutoffTime: minuteToTime(s.cutoff + daysBefore * DAY),
    daysBefore: String(daysBefore),
    capacity: s.capacity === null ? '' : String(s.capacity),
    weekdays: [...s.weekdays],
    position: String(s.position),
  };
}

/** The form as the API takes it. An end of 00:00 is the end of the day (a window up to midnight). */
function inputOf(f: FormValues): SlotInputIn {
  const start = timeToMinute(f.start) ?? Number.NaN;
  const rawEnd = timeToMinute(f.end) ?? Number.NaN;
  const end = rawEnd === 0 ? DAY : rawEnd;
  const cutoff = (timeToMinute(f.cutoffTime) ?? Number.NaN) - Number(f.daysBefore) * DAY;
  return {
    name: f.name,
    start,
    end,
    surcharge: f.surcharge.trim() === '' ? Number.NaN : Number(f.surcharge),
    cutoff,
    capacity: f.capacity.trim() === '' ? null : Number(f.capacity),
    weekdays: f.weekdays,
    position: Number(f.position) || 0,
  };
}

export default function Slots() {
  const { data, error, loading, reload } = useAdminQuery(slotsApi.adminList, {}, 'delivery-slots');
  const adminCall = useAdminCall();
  const notify = useNotify();
  const [editing, setEditing] = useState<number | 'new' | null>(null);

  const retire = async (s: DeliverySlot) => {
    try {
      const res = await adminCall(s.retired ? slotsApi.restore : slotsApi.retire, {
        params: { id: s.slotID },
      });
      notify(res.sys_message, 'success');
      reload();
    } catch (err) {
      notify(serverMessageOr(err, messages.somethingWentWrongDot), 'error');
    }
  };

  return (
    <Screen
      title={m.adminTitle}
      actions={
        <button type="button" className="btn btn--primary" onClick={() => setEditing('new')}>
          Add slot
        </button>
      }
    >
      {error && <LoadError text={error} onRetry={reload} />}
      {loading && !data && <Loading />}
      {editing !== null && (
        <SlotForm
          slot={editing === 'new' ? null : (data?.slots.find((s) => s.slotID === editing) ?? null)}
          onDone={(saved) => {
            setEditing(null);
            if (saved) reload();
          }}
        />
      )}
      {data && (
        <>
          <div className="admin-table-wrap">
            <table className="admin-table admin-table--cards admin-slots">
              <thead>
                <tr>
                  <th scope="col">Slot</th>
                  <th scope="col">Window</th>
                  <th scope="col">Surcharge</th>
                  <th scope="col">Cut-off</th>
                  <th scope="col">Orders a day</th>
                  <th scope="col">Days</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {data.slots.map((s) => (
                  <tr key={s.slotID} className={s.retired ? 'admin-retired' : undefined}>
                    <td data-label="Slot">
                      <strong>{s.name}</strong>
                      {s.isDefault ? <span className="muted"> (orders without a slot)</span> : null}
                      {s.retired ? <span className="muted"> (retired)</span> : null}
                    </td>
                    <td data-label="Window">{windowLabel(s)}</td>
                    <td data-label="Surcharge">
                      {s.surcharge ? formatRupees(s.surcharge) : m.noSurchargeAlone}
                    </td>
                    <td data-label="Cut-off">{cutoffText(s.cutoff)}</td>
                    <td data-label="Orders a day">{s.capacity ?? 'No limit'}</td>
                    <td data-label="Days">
                      {s.weekdays.length === 7 ? 'Every day' : s.weekdays.map((d) => WEEKDAYS[d]).join(', ')}
                    </td>
                    <td data-label="Actions">
                      <div className="admin-moves">
                        <button
                          type="button"
                          className="btn"
                          onClick={() => setEditing(s.slotID)}
                          aria-label={`Edit ${s.name}`}
                        >
                          Edit
                        </button>
                        {s.isDefault ? null : (
                          <button
                            type="button"
                            className={`btn ${s.retired ? '' : 'admin-danger'}`}
                            onClick={() => retire(s)}
                            aria-label={`${s.retired ? 'Offer again' : 'Retire'} ${s.name}`}
                          >
                            {s.retired ? 'Offer again' : 'Retire'}
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ClosedDates dates={data.closedDates} onChange={reload} />
        </>
      )}
    </Screen>
  );
}

function SlotForm({ slot, onDone }: { slot: DeliverySlot | null; onDone(saved: boolean): void }) {
  const [f, setF] = useState<FormValues>(slot ? valuesOf(slot) : EMPTY);
  const [busy, setBusy] = useState(false);
  const adminCall = useAdminCall();
  const notify = useNotify();
  const id = useId();
  const set = (k: keyof FormValues, value: string) => setF((old) => ({ ...old, [k]: value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const body = inputOf(f);
      const res = slot
        ? await adminCall(slotsApi.edit, { params: { id: slot.slotID }, body })
        : await adminCall(slotsApi.add, { body });
      notify(res.sys_message, 'success');
      onDone(true);
    } catch (err) {
      notify(serverMessageOr(err, messages.somethingWentWrongDot), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="admin-panel admin-slot-form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{slot ? `Edit ${slot.name}` : 'Add a slot'}</h2>
      <div className="admin-filters">
        <label className="admin-field">
          <span>Name</span>
          <input value={f.name} required maxLength={40} onChange={(e) => set('name', e.target.value)} />
        </label>
        <label className="admin-field">
          <span>Starts (India time)</span>
          <input type="time" value={f.start} required onChange={(e) => set('start', e.target.value)} />
        </label>
        <label className="admin-field">
          <span>Ends (00:00 is midnight)</span>
          <input type="time" value={f.end} required onChange={(e) => set('end', e.target.value)} />
        </label>
        <label className="admin-field">
          <span>Surcharge (₹)</span>
          <input
            type="number"
            min={0}
            inputMode="numeric"
            value={f.surcharge}
            onChange={(e) => set('surcharge', e.target.value)}
          />
        </label>
        <label className="admin-field">
          <span>Cut-off time</span>
          <input
            type="time"
            value={f.cutoffTime}
            required
            onChange={(e) => set('cutoffTime', e.target.value)}
          />
        </label>
        <label className="admin-field">
          <span>Cut-off day</span>
          <select value={f.daysBefore} onChange={(e) => set('daysBefore', e.target.value)}>
            <option value="0">On the delivery day</option>
            <option value="1">1 day before</option>
            <option value="2">2 days before</option>
          </select>
        </label>
        <label className="admin-field">
          <span>Orders a day (empty: no limit)</span>
          <input
            type="number"
            min={0}
            inputMode="numeric"
            value={f.capacity}
            onChange={(e) => set('capacity', e.target.value)}
          />
        </label>
        <label className="admin-field">
          <span>Order in the list</span>
          <input
            type="number"
            min={0}
            inputMode="numeric"
            value={f.position}
            onChange={(e) => set('position', e.target.value)}
          />
        </label>
      </div>
      <fieldset className="admin-weekdays">
        <legend>Runs on</legend>
        {WEEKDAYS.map((name, day) => (
          <label key={name}>
            <input
              type="checkbox"
              checked={f.weekdays.includes(day)}
              onChange={(e) =>
                setF((old) => ({
                  ...old,
                  weekdays: e.target.checked ? [...old.weekdays, day] : old.weekdays.filter((d) => d !== day),
                }))
              }
            />{' '}
            {name}
          </label>
        ))}
      </fieldset>
      <FormFoot busy={busy} submit={slot ? 'Save slot' : 'Add slot'} onCancel={() => onDone(false)} />
    </form>
  );
}

function ClosedDates({ dates, onChange }: { dates: { date: string; message: string }[]; onChange(): void }) {
  const [date, setDate] = useState('');
  const [message, setMessage] = useState('');
  const adminCall = useAdminCall();
  const notify = useNotify();

  const close = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const res = await adminCall(slotsApi.closeDate, { params: { date }, body: { message } });
      notify(res.sys_message, 'success');
      setDate('');
      setMessage('');
      onChange();
    } catch (err) {
      notify(serverMessageOr(err, messages.somethingWentWrongDot), 'error');
    }
  };
  const reopen = async (d: string) => {
    try {
      const res = await adminCall(slotsApi.reopenDate, { params: { date: d } });
      notify(res.sys_message, 'success');
      onChange();
    } catch (err) {
      notify(serverMessageOr(err, messages.somethingWentWrongDot), 'error');
    }
  };

  return (
    <section className="admin-panel" aria-labelledby="closed-title">
      <h2 id="closed-title">Closed dates</h2>
      {dates.length === 0 ? <p className="muted">No date is closed.</p> : null}
      <ul className="admin-closed">
        {dates.map((c) => (
          <li key={c.date}>
            <strong>{formatCalendarDay(c.date)}</strong>: {c.message}{' '}
            <button
              type="button"
              className="btn"
              onClick={() => reopen(c.date)}
              aria-label={`Open ${c.date} again`}
            >
              Open again
            </button>
          </li>
        ))}
      </ul>
      <form className="admin-filters" onSubmit={close}>
        <label className="admin-field">
          <span>Date</span>
          <input type="date" value={date} required onChange={(e) => setDate(e.target.value)} />
        </label>
        <label className="admin-field">
          <span>Message shoppers see</span>
          <input
            value={message}
            required
            maxLength={200}
            placeholder="Closed on 1 November for Diwali"
            onChange={(e) => setMessage(e.target.value)}
          />
        </label>
        <button type="submit" className="btn btn--primary">
          Close this date
        </button>
      </form>
    </section>
  );
}
