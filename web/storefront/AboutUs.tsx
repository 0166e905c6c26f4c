import { Link } from 'react-router-dom';
import { deliveryLine, deliveryWhere } from '../../domain/delivery-words.js';
import { giftMessages } from '../../domain/gifts.js';
import { SHOP_CONTACT } from '../../domain/shop-contact.js';
import { useDeliveryFacts } from '../hooks/useDeliveryFacts.js';
import { useTitle } from '../hooks/useTitle.js';

const GIFTS = [
  'Eggless cakes for birthdays, anniversaries and every day',
  'Fresh flower bouquets and arrangements',
  'Chocolates and sweets gift boxes',
  'Indoor plants',
  'Combos of cake, flowers and chocolates',
  'Personalised gifts',
];

/*
 * The stores are named on Contact (domain/stores.ts); here only their count and towns, which a test
 * holds against that list. Importing it here too would make it a chunk of its own, one more name
 * in the first screen's list of chunks. Where and when the shop delivers comes from its delivery
 * areas: the spec's About text promises delivery everywhere, which its own delivery table contradicts.
 */
export default function AboutUs() {
  useTitle('About us');
  const { areas, noticeDays } = useDeliveryFacts();
  return (
    <div className="page prose-page">
      <h1>About us</h1>
      <p>
        Bakery &amp; Blooms began in {SHOP_CONTACT.founded} as a small eggless bakery in Chandigarh. Our cakes
        won over the neighbourhood, flowers followed, and today we run 2 stores, in Chandigarh and Mohali.
      </p>
      <p>
        Everything we bake is eggless and made on the day it is delivered. {deliveryLine(areas)}.{' '}
        {giftMessages.photoCakeNotice(noticeDays)}
      </p>
      <h2>What we deliver</h2>
      <ul>
        {GIFTS.map((g) => (
          <li key={g}>{g}</li>
        ))}
      </ul>
      <h2 id="shipping">Shipping and returns</h2>
      <p>
        {deliveryWhere(areas)} Cakes and flowers are perishable, so if something arrives damaged, write to us
        the same day and we replace it.
      </p>
      <h2 id="privacy">Privacy</h2>
      <p>
        We use your details only to run your orders and never sell them. Our{' '}
        <Link to="/privacy">privacy page</Link> says what we keep, why, for how long, and whom to write to.
      </p>
      <h2 id="terms">Terms</h2>
      <p>
        Prices include all taxes. Same-day delivery depends on the order time.{' '}
        <Link to="/contact">Contact us</Link> with any question.
      </p>
    </div>
  );
}
