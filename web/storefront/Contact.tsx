import { useState } from 'react';
import { SHOP_CONTACT, STORES } from '../../domain/shop.js';

/**
 * Contact: the spec's form has no behaviour, so submitting only thanks the
 * shopper and points at email and phone. Each store has its embedded map, as
 * the spec says, loaded when the shopper asks for it: the map comes from
 * another site, so nothing is fetched from it (or told about the visit)
 * before that, and offline the page still works without it.
 */
export default function Contact() {
  const [sent, setSent] = useState(false);
  return (
    <div className="page contact">
      <h1>Contact us</h1>
      <p className="contact__intro">
        Email <a href={`mailto:${SHOP_CONTACT.email}`}>{SHOP_CONTACT.email}</a> or call{' '}
        <a href={`tel:${SHOP_CONTACT.phone.replace(/\s/g, '')}`}>{SHOP_CONTACT.phone}</a>.
      </p>
      <form
        className="form contact__form"
        onSubmit={(e) => {
          e.preventDefault();
          setSent(true);
        }}
      >
        <div className="field">
          <label htmlFor="contact-name">Name</label>
          <input id="contact-name" name="name" autoComplete="name" />
        </div>
        <div className="field">
          <label htmlFor="contact-email">Email</label>
          <input id="contact-email" name="email" type="email" autoComplete="email" />
        </div>
        <div className="field">
          <label htmlFor="contact-subject">Subject</label>
          <input id="contact-subject" name="subject" />
        </div>
        <div className="field">
          <label htmlFor="contact-message">Message</label>
          <textarea id="contact-message" name="message" rows={5} />
        </div>
        <button type="submit" className="btn btn--primary">
          Send message
        </button>
        <p role="status">{sent ? `Thank you! For a quick answer, please email or call us directly.` : ''}</p>
      </form>
      <section className="contact__stores" aria-labelledby="contact-stores">
        <h2 id="contact-stores">Our stores</h2>
        <ul className="stores">
          {STORES.map((s) => (
            <li key={s.name}>
              <h3>{s.name}</h3>
              <p>{s.address}</p>
              <StoreMap store={s} />
            </li>
          ))}
        </ul>
      </section>
      <section className="contact__faq" aria-labelledby="faq">
        <h2 id="faq">FAQs</h2>
        <p>
          <strong>Are your cakes eggless?</strong> Yes, every one.
        </p>
        <p>
          <strong>Until when can I order for today?</strong> 6 PM, in Chandigarh and Mohali.
        </p>
      </section>
    </div>
  );
}

type Store = (typeof STORES)[number];

/** OpenStreetMap's embeddable map around the store, with its marker. */
function storeMapUrl(store: Pick<Store, 'lat' | 'lon'>): string {
  const { lat, lon } = store;
  const bbox = [lon - 0.008, lat - 0.005, lon + 0.008, lat + 0.005].map((n) => n.toFixed(4)).join(',');
  return `https://www.openstreetmap.org/export/embed.html?bbox=${bbox}&layer=mapnik&marker=${lat},${lon}`;
}

function StoreMap({ store }: { store: Store }) {
  const [shown, setShown] = useState(false);
  const online = typeof navigator === 'undefined' || navigator.onLine !== false;
  return (
    <div className="store-map">
      {shown && online ? (
        <iframe
          className="store-map__frame"
          title={`Map of ${store.name}`}
          src={storeMapUrl(store)}
          loading="lazy"
          referrerPolicy="no-referrer"
        />
      ) : shown ? (
        <p className="muted">The map needs an internet connection.</p>
      ) : (
        <button
          type="button"
          className="btn btn--outline btn--small"
          aria-label={`Show map: ${store.name}`}
          onClick={() => setShown(true)}
        >
          Show map
        </button>
      )}
      <a
        href={`https://www.openstreetmap.org/?mlat=${store.lat}&mlon=${store.lon}#map=16/${store.lat}/${store.lon}`}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`Map of ${store.name}, in a new tab`}
      >
        Open in a new tab
      </a>
    </div>
  );
}
