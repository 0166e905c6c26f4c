import { Link } from 'react-router-dom';
import { SHOP_CONTACT } from '../../domain/shop.js';

/**
 * The footer (spec section 2). Links to pages the shop does not have yet
 * (blogs, policies) lead to the nearest real page rather than nowhere; the
 * subscribe box, like the spec's, has no behaviour (submitting stays on the page).
 */
export function Footer() {
  return (
    <footer className="footer">
      <div className="footer__cols">
        <nav aria-labelledby="footer-quick">
          <h2 id="footer-quick">Quick links</h2>
          <ul>
            <li>
              <Link to="/about-us">Blogs</Link>
            </li>
            <li>
              <Link to="/contact">Store locator</Link>
            </li>
            <li>
              <Link to="/about-us">About us</Link>
            </li>
            <li>
              <Link to="/contact">Contact</Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-info">
          <h2 id="footer-info">Information</h2>
          <ul>
            <li>
              <Link to="/about-us#shipping">Shipping and returns</Link>
            </li>
            <li>
              <Link to="/about-us#privacy">Privacy</Link>
            </li>
            <li>
              <Link to="/contact#faq">FAQs</Link>
            </li>
            <li>
              <Link to="/about-us#terms">Terms</Link>
            </li>
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
        <p className="footer__pay">
          We accept UPI · Visa · Mastercard · RuPay · Net banking · Cash on delivery
        </p>
        <p className="footer__social">
          <span>Follow us: Instagram · Facebook · YouTube</span>
        </p>
        <p>
          <Link to="/home">Bakery &amp; Blooms</Link> · Eggless since {SHOP_CONTACT.founded} · Chandigarh
          &amp; Mohali
        </p>
      </div>
    </footer>
  );
}
