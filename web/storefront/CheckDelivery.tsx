/**
 * "Check delivery": a pincode and the shop's answer, before any login. The product page shows it
 * under the product (a photo cake's answer waits for its notice) and the header's pincode chip
 * opens it in a small popover; both answer from the device (areas, slots, closed dates and the
 * notice, kept by the catalogue sync), so they answer at once and offline. Online, the promised
 * date's places left are asked for, and a full slot drops out of the answer.
 *
 * The pincode is the device's (`delivery-pincode.ts`): the box starts from the saved one and
 * follows it when the header changes it; a pincode the shop delivers to is saved when checked, so
 * the header and the checkout follow the box. One outside the areas is answered but not saved: the
 * header would otherwise say "Delivering to" a pincode the shop does not deliver to.
 *
 * Loaded with the product page or when the chip is first opened, never on the first screen.
 */
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { areaCities, findArea } from '../../domain/delivery-areas.js';
import { type DeliveryPromise, deliveryPromise, promiseText } from '../../domain/delivery-promise.js';
import { formatRupees } from '../../domain/money.js';
import type { SlotsForDate } from '../../domain/slots.js';
import { type DeliveryFacts, useDeliveryFacts } from '../hooks/useDelivery.js';
import { usePwaState } from '../pwa/pwa-state.js';
import { usePincode } from './delivery-pincode.js';
import './check-delivery.css';

/** The product page's box: its heading, then the check. */
export function ProductDelivery({ photoCake }: { photoCake: boolean }) {
  const headingId = useId();
  return (
    <section className="check-delivery" aria-labelledby={headingId}>
      <h2 id={headingId} className="check-delivery__title">
        Check delivery
      </h2>
      <CheckDelivery photoCake={photoCake} />
    </section>
  );
}

/**
 * The header chip's popover (loaded when first opened): the same check, for any product. Escape, its
 * close button and a tap outside close it; the first two give the focus back to the chip.
 */
export default function PincodePopover({ onClose }: { onClose: () => void }) {
  const box = useRef<HTMLElement>(null);
  const headingId = useId();
  // The header makes a new callback at each render; the listeners stay the same.
  const closing = useRef(onClose);
  closing.current = onClose;
  const close = useCallback((refocus: boolean) => {
    // The chip's code is on the first screen: the focus goes back from here, not from there.
    if (refocus) document.querySelector<HTMLElement>('.pin-chip')?.focus();
    closing.current();
  }, []);
  useEffect(() => {
    const outside = (e: PointerEvent) => {
      const target = e.target as Element | null;
      // The chip toggles the popover itself.
      if (box.current?.contains(target) || target?.closest('.pin-chip')) return;
      close(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      close(true);
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', onKey);
    };
  }, [close]);
  return (
    <section ref={box} className="pin-popover" aria-labelledby={headingId}>
      <div className="pin-popover__head">
        <h2 id={headingId} className="check-delivery__title">
          Where should we deliver?
        </h2>
        <button type="button" className="btn btn--icon pin-popover__close" onClick={() => close(true)}>
          <span aria-hidden="true">×</span>
          <span className="visually-hidden">Close</span>
        </button>
      </div>
      <CheckDelivery photoCake={false} autoFocus />
    </section>
  );
}

/** Orders booked per slot on the dates the server was asked about (online only). */
type Booked = Record<string, Record<number, number | null>>;

function CheckDelivery({ photoCake, autoFocus = false }: { photoCake: boolean; autoFocus?: boolean }) {
  const [saved, save] = usePincode();
  const facts = useDeliveryFacts();
  const { offline } = usePwaState();
  const [text, setText] = useState(saved ?? '');
  /** The pincode the answer is for; null before the first check. */
  const [asked, setAsked] = useState<string | null>(saved);
  const [booked, setBooked] = useState<Booked>({});
  const inputId = useId();
  const answerId = useId();

  // The header changed the pincode: this box answers for the new one.
  useEffect(() => {
    if (saved === null) return;
    setText(saved);
    setAsked(saved);
  }, [saved]);

  // A remembered pincode the shop has since stopped delivering to is forgotten, so the header no
  // longer says "Delivering to" it; this box still answers for it, with where the shop delivers.
  const dropped =
    saved !== null && facts !== undefined && facts.areas.length > 0 && !findArea(facts.areas, saved);
  useEffect(() => {
    if (dropped) save(null);
  }, [dropped, save]);

  const promise = asked && facts ? answer(asked, facts, photoCake, offline ? {} : booked) : null;
  const askDate = !offline && promise?.kind === 'delivers' && !(promise.date in booked) ? promise.date : null;

  // The promised date's places left: asked once per date, so a full slot moves the answer on.
  useEffect(() => {
    if (!askDate) return;
    let live = true;
    void Promise.all([import('../api/client.js'), import('../../domain/slots.contract.js')])
      .then(([{ call }, { slotsApi }]) => call(slotsApi.forDate, { query: { date: askDate }, token: null }))
      .then((got) => {
        if (live && got.data) setBooked((b) => ({ ...b, [askDate]: bookedOf(got.data as SlotsForDate) }));
      })
      // Not answered (offline after all, server down): the device's answer stands, as offline.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [askDate]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const pincode = text.trim();
    setAsked(pincode);
    if (facts && findArea(facts.areas, pincode)) save(pincode);
  };

  const invalid = promise?.kind === 'invalid';
  return (
    <form className="check-delivery__form" onSubmit={onSubmit} noValidate>
      <label htmlFor={inputId}>Pincode</label>
      <div className="check-delivery__row">
        <input
          id={inputId}
          value={text}
          onChange={(e) => setText(e.target.value)}
          inputMode="numeric"
          autoComplete="postal-code"
          enterKeyHint="done"
          maxLength={6}
          placeholder="e.g. 160062"
          aria-invalid={invalid || undefined}
          aria-describedby={answerId}
          // biome-ignore lint/a11y/noAutofocus: the popover opens to type a pincode; its chip was just pressed.
          autoFocus={autoFocus}
        />
        <button type="submit" className="btn btn--outline">
          Check
        </button>
      </div>
      {/* Always in the page, so a screen reader hears each new answer. */}
      <div id={answerId} role="status" className="check-delivery__answer">
        {asked !== null && facts && <Answer promise={promise} facts={facts} />}
      </div>
    </form>
  );
}

function answer(pincode: string, facts: DeliveryFacts, photoCake: boolean, booked: Booked): DeliveryPromise {
  return deliveryPromise(pincode, {
    areas: facts.areas,
    slots: facts.slots,
    closures: facts.closures,
    photoCake,
    noticeDays: facts.settings.photoCakeNoticeDays,
    now: new Date(),
    booked: (date, slotID) => booked[date]?.[slotID] ?? null,
  });
}

/** Orders booked per slot from the server's places left (capacity minus left; null when unlimited). */
function bookedOf(day: SlotsForDate): Record<number, number | null> {
  const out: Record<number, number | null> = {};
  for (const s of day.slots)
    out[s.slotID] = s.capacity === null || s.left === null ? null : s.capacity - s.left;
  return out;
}

function Answer({ promise, facts }: { promise: DeliveryPromise | null; facts: DeliveryFacts }) {
  if (!promise) return null;
  // Before the first sync brought the areas, every pincode would read as outside: say so instead.
  if (facts.areas.length === 0 && promise.kind !== 'invalid')
    return (
      <p className="check-delivery__line">
        The delivery areas have not reached this phone yet. Connect once to check.
      </p>
    );
  const line = promiseText(promise, new Date());
  if (promise.kind === 'delivers') {
    // "Delivers to Mohali (160062)" stands out; the day, charge and extras follow in plain type.
    const cut = line.indexOf(' · ');
    return (
      <p className="check-delivery__line">
        <strong className="check-delivery__yes">{cut < 0 ? line : line.slice(0, cut)}</strong>
        {cut < 0 ? null : line.slice(cut)}
      </p>
    );
  }
  if (promise.kind !== 'outside')
    return (
      <p className={`check-delivery__line${promise.kind === 'invalid' ? ' check-delivery__line--no' : ''}`}>
        {line}
      </p>
    );
  return (
    <>
      <p className="check-delivery__line check-delivery__line--no">{line}</p>
      <p className="check-delivery__areas">{promise.areasText}.</p>
      <ul className="check-delivery__cities">
        {areaCities(facts.areas).map((c) => (
          <li key={`${c.state}/${c.city}`}>
            {c.city}{' '}
            <span className="muted">
              {c.minCharge === c.maxCharge
                ? formatRupees(c.minCharge)
                : `${formatRupees(c.minCharge)}-${formatRupees(c.maxCharge)}`}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
