import { useState } from 'react';
import { SHOP_CONTACT, STORES } from '../../domain/shop.js';

/**
 * Contact: the spec's form has no behaviour, so submitting only thanks the
 * shopper and points at email and phone. Store maps are links, not embeds:
 * nothing from another origin loads inside the shop.
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
              <a
                href={`https://www.openstreetmap.org/search?query=${encodeURIComponent(s.address)}`}
                target="_blank"
                rel="noopener noreferrer"
              >
                Open map<span className="visually-hidden"> of {s.name}</span> (new tab)
              </a>
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
