import { type FormEvent, useRef, useState } from 'react';
import { contactApi } from '../../domain/contact.contract.js';
import { type ContactField, contactErrors, contactMessages } from '../../domain/contact.js';
import { deliveryLine, deliveryWhere } from '../../domain/delivery-words.js';
import { giftMessages } from '../../domain/gifts.js';
import { type ShopProfile, telHref, whatsappHref } from '../../domain/shop-profile.js';
import { slotMessages } from '../../domain/slot-messages.js';
import { ApiError, call } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useDeliveryFacts } from '../hooks/useDeliveryFacts.js';
import { useShopProfile } from '../hooks/useShopProfile.js';
import { useTitle } from '../hooks/useTitle.js';
import { StoreList } from './StoreList.js';

const FIELDS = ['name', 'email', 'subject', 'message'] as const;
const EMPTY: Record<ContactField, string> = { name: '', email: '', subject: '', message: '' };
/** What the shopper typed survives leaving the page or a reload (a failed send keeps it too); a sent message clears it. */
const DRAFT_KEY = 'contactDraft';

function readDraft(): Record<ContactField, string> {
  try {
    const saved = JSON.parse(sessionStorage.getItem(DRAFT_KEY) ?? 'null') as Partial<
      Record<ContactField, unknown>
    > | null;
    if (!saved || typeof saved !== 'object') return EMPTY;
    return Object.fromEntries(FIELDS.map((f) => [f, typeof saved[f] === 'string' ? saved[f] : ''])) as Record<
      ContactField,
      string
    >;
  } catch {
    return EMPTY;
  }
}
function writeDraft(values: Record<ContactField, string> | null): void {
  try {
    if (values) sessionStorage.setItem(DRAFT_KEY, JSON.stringify(values));
    else sessionStorage.removeItem(DRAFT_KEY);
  } catch {
    // Without storage the draft lives as long as the page does.
  }
}

type Outcome = { kind: 'sent' | 'error'; text: string } | null;

/**
 * Contact: a working form (the spec's had no behaviour). Name, email and
 * message are required, with inline errors after a submit attempt; the
 * message goes to the shop through `POST /api/contact`, and the answer says
 * what happened. Sending needs the network: offline it says so and keeps what
 * was typed. Each store has its embedded map, loaded when the shopper asks
 * for it: the map comes from another site, so nothing is fetched from it (or
 * told about the visit) before that, and offline the page still works without it.
 */
export default function Contact() {
  useTitle('Contact us');
  const { areas, noticeDays } = useDeliveryFacts();
  const profile = useShopProfile();
  return (
    <div className="page contact">
      <h1>Contact us</h1>
      <CareLine profile={profile} />
      <ContactForm />
      {profile.stores.length > 0 && (
        <section className="contact__stores" aria-labelledby="contact-stores">
          <h2 id="contact-stores">{profile.stores.length === 1 ? 'Our store' : 'Our stores'}</h2>
          <StoreList stores={profile.stores} maps />
        </section>
      )}
      <section className="contact__faq" aria-labelledby="faq">
        <h2 id="faq">FAQs</h2>
        <p>
          <strong>Where do you deliver?</strong> {deliveryWhere(areas)}
        </p>
        <p>
          <strong>Until when can I order for today?</strong> {deliveryLine(areas)}. Each delivery slot takes
          orders for today until its own cut-off: past it, checkout says “{slotMessages.past}”.{' '}
          {giftMessages.photoCakeNotice(noticeDays)}
        </p>
      </section>
    </div>
  );
}

/** "Email ... or call ...", with what the shop has; WhatsApp and hours when it has them. */
function CareLine({ profile }: { profile: ShopProfile }) {
  const { phone, whatsapp, email, hours } = profile.care;
  if (!phone && !email && !whatsapp) return null;
  return (
    <p className="contact__intro">
      {email && (
        <>
          Email <a href={`mailto:${email}`}>{email}</a>
          {phone || whatsapp ? ' or ' : ''}
        </>
      )}
      {phone && (
        <>
          {email ? 'call' : 'Call'} <a href={telHref(phone)}>{phone}</a>
          {whatsapp ? ' or ' : ''}
        </>
      )}
      {whatsapp && (
        <>
          {email || phone ? 'message us on' : 'Message us on'}{' '}
          <a href={whatsappHref(whatsapp)} target="_blank" rel="noopener noreferrer">
            WhatsApp<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </>
      )}
      .{hours && ` We answer ${hours}.`}
    </p>
  );
}

const LABELS: Record<ContactField, string> = {
  name: 'Name',
  email: 'Email',
  subject: 'Subject (optional)',
  message: 'Message',
};

function ContactForm() {
  const notify = useNotify();
  const [values, setValues] = useState(readDraft);
  const [errors, setErrors] = useState<Partial<Record<ContactField, string>>>({});
  const [tried, setTried] = useState(false);
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const form = useRef<HTMLFormElement>(null);

  const change = (field: ContactField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    writeDraft(next);
    // After a first attempt, errors follow the typing, so a fixed field stops saying it is wrong.
    if (tried) setErrors(contactErrors(next));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    setOutcome(null);
    const found = contactErrors(values);
    setErrors(found);
    const first = FIELDS.find((f) => found[f]);
    if (first) {
      form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      notify(contactMessages.invalid, 'error');
      return;
    }
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      setOutcome({ kind: 'error', text: contactMessages.offline });
      notify(contactMessages.offline, 'error');
      return;
    }
    setSending(true);
    try {
      const answer = await call(contactApi.send, { body: values, token: null });
      setValues(EMPTY);
      writeDraft(null);
      setTried(false);
      setOutcome({ kind: 'sent', text: answer.sys_message });
      notify(answer.sys_message, 'success');
    } catch (err) {
      // Status 0: no answer at all (the connection dropped): the same words as offline.
      const text =
        err instanceof ApiError
          ? err.status === 0
            ? contactMessages.offline
            : err.status >= 500
              ? contactMessages.failed
              : err.message
          : contactMessages.failed;
      setOutcome({ kind: 'error', text });
      notify(text, 'error');
    } finally {
      setSending(false);
    }
  };

  return (
    <form className="form contact__form" ref={form} noValidate onSubmit={(e) => void submit(e)}>
      {FIELDS.map((f) => {
        const id = `contact-${f}`;
        const error = errors[f];
        const common = {
          id,
          name: f,
          value: values[f],
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${id}-error` : undefined,
          'aria-required': f !== 'subject' ? true : undefined,
        } as const;
        return (
          <div className="field" key={f}>
            <label htmlFor={id}>{LABELS[f]}</label>
            {f === 'message' ? (
              <textarea {...common} rows={5} onChange={(e) => change(f, e.target.value)} />
            ) : (
              <input
                {...common}
                type={f === 'email' ? 'email' : 'text'}
                autoComplete={f === 'name' ? 'name' : f === 'email' ? 'email' : 'off'}
                onChange={(e) => change(f, e.target.value)}
              />
            )}
            {error && (
              <p className="field__error" id={`${id}-error`}>
                {error}
              </p>
            )}
          </div>
        );
      })}
      <button type="submit" className="btn btn--primary" disabled={sending}>
        {sending ? 'Sending…' : 'Send message'}
      </button>
      <p className={outcome?.kind === 'error' ? 'form__outcome form__outcome--error' : 'form__outcome'}>
        {outcome?.text ?? ''}
      </p>
    </form>
  );
}
