import { Link } from 'react-router-dom';
import type { Category } from '../../domain/catalogue.js';
import { HOME_SECTION_SIZE } from '../../domain/shop.js';
import { homeNav } from '../../domain/shop-nav.js';
import { BannerCarousel } from '../components/BannerCarousel.js';
import { categoryUrl } from '../components/Header.js';
import { ProductGrid } from '../components/ProductCard.js';
import { useSomeProductsInCategoryId } from '../hooks/useCatalogue.js';
import { useDeviceCategories } from '../hooks/useDeviceCategories.js';
import { shopName } from '../shop-name.js';

/** Home: banners, four category tiles, three sections of up to 4 random products (spec section 2). */
export function Home() {
  const name = shopName();
  const { tiles, sections, banners } = homeNav(useDeviceCategories());
  return (
    <div className="home">
      <h1 className="visually-hidden">{name}</h1>
      {banners.length > 0 && <BannerCarousel banners={banners} />}
      <nav aria-label="Shop by category">
        <ul className="tiles">
          {tiles.map(({ category: c, art }, i) => (
            <li key={c.categoryID}>
              <Link to={categoryUrl(c.categoryName)} className={`tile tile--${i + 1}`}>
                {/* Drawn in app.css (decoration, not code; emoji would depend on the phone's fonts). */}
                {art > 0 && <span className={`tile__icon tile__icon--${art}`} aria-hidden="true" />}
                <span>{c.categoryName}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {sections.map((c, i) => (
        <HomeSection key={c.categoryID} category={c} belowFold={i > 0} />
      ))}
    </div>
  );
}

function HomeSection({ category, belowFold }: { category: Category; belowFold: boolean }) {
  const products = useSomeProductsInCategoryId(category.categoryID, HOME_SECTION_SIZE);
  const headingId = `home-section-${category.categoryID}`;
  // Until the store answers, or a first visit's sync brings the products (see the hook), empty cards of the
  // real size hold the section's place, so the cards arriving push nothing down the screen (no layout
  // shift); no spinner.
  return (
    <section className="section" aria-labelledby={headingId}>
      <div className="section__head">
        <h2 id={headingId}>{category.categoryName}</h2>
        <Link to={categoryUrl(category.categoryName)}>
          View all<span className="visually-hidden"> {category.categoryName}</span>
        </Link>
      </div>
      {!products ? (
        <PendingCards />
      ) : (
        products.length > 0 && (
          <ProductGrid products={products} label={category.categoryName} belowFold={belowFold} />
        )
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
