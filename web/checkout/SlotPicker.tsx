/**
 * The delivery slots of the checkout. The device's copy (synced with
 * the catalogue) answers at once and offline: times, surcharges, cut-offs and
 * closed dates. Online, the server's answer for the chosen date replaces it, with
 * what is left of each slot ("Full"); offline, places left are not known and the
 * server checks them when the order is sent (a full slot then waits for the
 * shopper with the next free ones).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { isCalendarDate } from '../../domain/india-time.js';
import { formatRupees } from '../../domain/money.js';
import { slotMessages as m } from '../../domain/slot-messages.js';
import { slotsApi } from '../../domain/slots.contract.js';
import {
  type ClosedDate,
  type DeliverySlot,
  nightOfLabel,
  type SlotAvailability,
  type SlotsForDate,
  slotsOn,
  windowLabel,
} from '../../domain/slots.js';
import { db } from '../../sw/db.js';
import { call } from '../api/client.js';

export interface DeviceSlots {
  slots: DeliverySlot[];
  closures: ClosedDate[];
}

/** The device's slots and closed dates; undefined until read. An empty list: the device has none yet. */
export function useDeviceSlots(): DeviceSlots | undefined {
  return useLiveQuery(async () => ({
    slots: await db.slots.toArray(),
    closures: await db.closedDates.toArray(),
  }));
}

/** A date's slots as they stand: the server's when online and answered, else the device's. */
export function useSlotsOn(
  device: DeviceSlots | undefined,
  date: string,
  offline: boolean,
): { slots: SlotAvailability[]; closed: string | null; fromServer: boolean } {
  const [remote, setRemote] = useState<SlotsForDate | null>(null);
  const version = device?.slots.length ?? 0;
  useEffect(() => {
    if (offline || !isCalendarDate(date) || !version) return;
    let live = true;
    call(slotsApi.forDate, { query: { date }, token: null })
      .then((answer) => {
        if (live && answer.data) setRemote(answer.data);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [date, offline, version]);
  if (remote && remote.date === date && !offline) {
    return { slots: remote.slots, closed: remote.closed, fromServer: true };
  }
  if (!device || !isCalendarDate(date)) return { slots: [], closed: null, fromServer: false };
  return {
    slots: slotsOn(device.slots, date, new Date(), device.closures, () => null),
    closed: device.closures.find((c) => c.date === date)?.message ?? null,
    fromServer: false,
  };
}

function stateText(s: SlotAvailability): string | null {
  switch (s.state) {
    case 'full':
      return m.full;
    case 'closed':
      return m.closed;
    case 'past':
      return m.past;
    case 'not-running':
      return m.notRunning;
    case 'retired':
      return m.closed;
    default:
      return s.left !== null && s.left <= 5 ? m.left(s.left) : null;
  }
}

/** A slot's price: its surcharge; with none, "Free" only where the delivery itself costs nothing. */
export function slotPrice(surcharge: number, deliveryCharge: number | null): string {
  if (surcharge) return formatRupees(surcharge);
  return deliveryCharge === 0 ? m.free : m.noSurcharge;
}

export function SlotPicker({
  id,
  slots,
  closed,
  offline,
  value,
  error,
  onChange,
  deliveryCharge,
}: {
  id: string;
  slots: SlotAvailability[];
  closed: string | null;
  offline: boolean;
  /** The pincode's delivery charge; null until the pincode is known. Only at 0 is a slot "Free". */
  deliveryCharge: number | null;
  value: number | null;
  error: string | undefined;
  onChange(slotID: number): void;
}) {
  const noneOpen = slots.every((s) => s.state !== 'open');
  return (
    <fieldset
      className="co-slots"
      id={id}
      tabIndex={-1}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend>{m.legend}</legend>
      {closed ? <p className="co-warning">{closed}</p> : null}
      {!closed && noneOpen && slots.length ? <p className="co-hint">{m.noSlots}</p> : null}
      <div className="co-slot-list">
        {slots.map((s) => {
          const note = stateText(s);
          const night = nightOfLabel(s, s.date);
          const open = s.state === 'open';
          return (
            <label key={s.slotID} className={`co-slot${open ? '' : ' co-slot--off'}`}>
              <input
                type="radio"
                name={`${id}-slot`}
                value={s.slotID}
                checked={value === s.slotID}
                disabled={!open}
                onChange={() => onChange(s.slotID)}
              />
              <span className="co-slot__name">{s.name}</span>
              <span className="co-slot__time">{windowLabel(s)}</span>
              <span className="co-slot__price">{slotPrice(s.surcharge, deliveryCharge)}</span>
              {note ? <span className="co-slot__note">{note}</span> : null}
              {night ? <span className="co-slot__night">{night}</span> : null}
            </label>
          );
        })}
      </div>
      {offline ? <p className="co-hint">{m.offlineNote}</p> : null}
      {error ? (
        <p className="co-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
