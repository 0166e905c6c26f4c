import { Link } from 'react-router-dom';
import { PAYMENT_METHODS, SHOP_CONTACT, socialProfiles } from '../../domain/shop-contact.js';

/**
 * The shop's social profiles are baked into the build from its settings
 * (Vite's `VITE_*` variables): the footer is on the first screen, and a
 * request for settings there would be one more round trip before it is
 * complete, for addresses that change about never.
 */
const SOCIAL = socialProfiles(import.meta.env);

const QUICK = [
  ['/contact', 'Store locator'],
  ['/about-us', 'About us'],
  ['/contact', 'Contact'],
] as const;
const INFO = [
  ['/about-us#shipping', 'Shipping and returns'],
  ['/about-us#privacy', 'Privacy'],
  ['/contact#faq', 'FAQs'],
  ['/about-us#terms', 'Terms'],
] as const;

function Links({ list }: { list: readonly (readonly [string, string])[] }) {
  return list.map(([to, text]) => (
    <li key={text}>
      <Link to={to}>{text}</Link>
    </li>
  ));
}

/**
 * The footer (spec section 2). Links to pages the shop does not have yet lead
 * to the nearest real page rather than nowhere; Blogs has no page yet and says
 * so instead of linking to another one. The subscribe box, like the spec's,
 * has no behaviour (submitting stays on the page). Payment and social marks
 * are drawn in the stylesheet; social icons show only for profiles the shop
 * has configured.
 */
export function Footer() {
  return (
    <footer className="footer">
      <div className="footer__cols">
        <nav aria-labelledby="footer-quick">
          <h2 id="footer-quick">Quick links</h2>
          <ul>
            <li>
              <span className="footer__soon">Blogs (coming soon)</span>
            </li>
            <Links list={QUICK} />
          </ul>
        </nav>
        <nav aria-labelledby="footer-info">
          <h2 id="footer-info">Information</h2>
          <ul>
            <Links list={INFO} />
          </ul>
        </nav>
        <div>
          <h2>Contact</h2>
          <p>
            <a href={`tel:${SHOP_CONTACT.phone.replace(/\s/g, '')}`}>{SHOP_CONTACT.phone}</a>
          </p>
          <p>
            <a href={`mailto:${SHOP_CONTACT.email}`}>{SHOP_CONTACT.email}</a>
          </p>
        </div>
        <form className="subscribe" onSubmit={(e) => e.preventDefault()}>
          <h2>Stay in touch</h2>
          <label htmlFor="subscribe-email">Email address</label>
          <div className="subscribe__row">
            <input id="subscribe-email" type="email" name="email" autoComplete="email" />
            <button type="submit" className="btn btn--primary">
              Subscribe
            </button>
          </div>
        </form>
      </div>
      <div className="footer__bottom">
        <div className="footer__marks">
          <h2 className="footer__label" id="footer-pay">
            We accept
          </h2>
          <ul className="marks" aria-labelledby="footer-pay">
            {PAYMENT_METHODS.map((m) => (
              <li key={m.id}>
                <span className={`pay pay--${m.id}`} role="img" aria-label={m.name} />
              </li>
            ))}
          </ul>
        </div>
        {SOCIAL.length > 0 && (
          <div className="footer__marks">
            <h2 className="footer__label" id="footer-social">
              Follow us
            </h2>
            <ul className="marks" aria-labelledby="footer-social">
              {SOCIAL.map((s) => (
                <li key={s.id}>
                  <a
                    className={`social social--${s.id}`}
                    href={s.url}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    <span className="visually-hidden">{s.name} (opens in a new tab)</span>
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
        <p>
          <Link to="/home">Bakery &amp; Blooms</Link> · Eggless since {SHOP_CONTACT.founded} · Chandigarh
          &amp; Mohali
        </p>
      </div>
    </footer>
  );
}
