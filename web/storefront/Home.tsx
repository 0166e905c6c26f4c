import { useLiveQuery } from 'dexie-react-hooks';
import { Link } from 'react-router-dom';
import type { Category } from '../../domain/catalogue.js';
import { HOME_SECTION_SIZE, HOME_SECTIONS, HOME_TILES } from '../../domain/shop.js';
import { db } from '../../sw/db.js';
import { hasProducts } from '../../sw/product-chunks.js';
import { BannerCarousel } from '../components/BannerCarousel.js';
import { categoryUrl } from '../components/Header.js';
import { ProductGrid } from '../components/ProductCard.js';
import { useSomeProductsInCategoryId } from '../hooks/useCatalogue.js';

/** Home: banners, four category tiles, three sections of up to 4 random products (spec section 2). */
export function Home() {
  // A first visit (never synced, nothing stored yet): the sections are empty only because the catalogue
  // is still on its way. A boolean, so later syncs (each writes lastSyncedAt) do not re-render all of Home.
  // Until it answers, sections wait too: an empty section answering first would collapse and shift the page.
  const waiting = useLiveQuery(
    async () => (await db.meta.get('lastSyncedAt'))?.value == null && !(await hasProducts(db)),
    [],
  );
  return (
    <div className="home">
      <h1 className="visually-hidden">Bakery &amp; Blooms: eggless cakes, flowers and gifts</h1>
      <BannerCarousel />
      <nav aria-label="Shop by category">
        <ul className="tiles">
          {HOME_TILES.map((c, i) => (
            <li key={c.categoryID}>
              <Link to={categoryUrl(c.categoryName)} className={`tile tile--${i + 1}`}>
                {/* Drawn in app.css (decoration, not code; emoji would depend on the phone's fonts). */}
                <span className={`tile__icon tile__icon--${i + 1}`} aria-hidden="true" />
                <span>{c.categoryName}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {HOME_SECTIONS.map((c, i) => (
        <HomeSection key={c.categoryID} category={c} belowFold={i > 0} waiting={waiting !== false} />
      ))}
    </div>
  );
}

function HomeSection({
  category,
  belowFold,
  waiting,
}: {
  category: Category;
  belowFold: boolean;
  waiting: boolean;
}) {
  const products = useSomeProductsInCategoryId(category.categoryID, HOME_SECTION_SIZE);
  const headingId = `home-section-${category.categoryID}`;
  // Until the store answers (or the first sync brings the products) empty cards of the real size hold the
  // section's place, so the cards arriving push nothing down the screen (no layout shift); no spinner.
  return (
    <section className="section" aria-labelledby={headingId}>
      <div className="section__head">
        <h2 id={headingId}>{category.categoryName}</h2>
        <Link to={categoryUrl(category.categoryName)}>
          View all<span className="visually-hidden"> {category.categoryName}</span>
        </Link>
      </div>
      {products && products.length > 0 ? (
        <ProductGrid products={products} label={category.categoryName} belowFold={belowFold} />
      ) : (
        (!products || waiting) && <PendingCards />
      )}
    </section>
  );
}

/** Four blank cards with the real cards' boxes (a square image, a title line, a price line). */
function PendingCards() {
  return (
    <ul className="grid" aria-hidden="true">
      {[0, 1, 2, 3].map((i) => (
        <li key={i}>
          <div className="card">
            <div className="card__img" />
            <div className="card__pending-title">&nbsp;</div>
            <div className="card__pending-price">&nbsp;</div>
          </div>
        </li>
      ))}
    </ul>
  );
}
