import { Link } from 'react-router-dom';
import type { Category } from '../../domain/catalogue.js';
import { HOME_SECTION_SIZE, HOME_SECTIONS, HOME_TILES } from '../../domain/shop.js';
import { BannerCarousel } from '../components/BannerCarousel.js';
import { categoryUrl } from '../components/Header.js';
import { ProductGrid } from '../components/ProductCard.js';
import { useProductsInCategoryId, useStableShuffle } from '../hooks/useCatalogue.js';

/** Drawn icons (not emoji, which some phones and kiosks lack fonts for). */
const TILE_ICONS = [
  // cake
  <svg key="cake" className="tile__icon" viewBox="0 0 36 36" aria-hidden="true">
    <rect x="6" y="17" width="24" height="13" rx="2" fill="currentColor" />
    <path d="M6 21q3 3 6 0t6 0 6 0 6 0" stroke="#fff" strokeWidth="2" fill="none" />
    <rect x="17" y="8" width="2" height="8" fill="currentColor" />
    <ellipse cx="18" cy="6" rx="2" ry="3" fill="#e0a100" />
  </svg>,
  // flowers
  <svg key="flowers" className="tile__icon" viewBox="0 0 36 36" aria-hidden="true">
    <path d="M18 18v14M18 26q-6-2-8-7M18 24q6-2 8-7" stroke="#2f6b2f" strokeWidth="2" fill="none" />
    <circle cx="18" cy="11" r="7" fill="currentColor" />
    <circle cx="18" cy="11" r="2.5" fill="#e0a100" />
  </svg>,
  // chocolate
  <svg key="chocolate" className="tile__icon" viewBox="0 0 36 36" aria-hidden="true">
    <rect x="8" y="5" width="20" height="26" rx="2" fill="currentColor" />
    <path d="M8 14h20M8 22h20M18 5v26" stroke="#fff" strokeWidth="1.5" />
  </svg>,
  // gift
  <svg key="gift" className="tile__icon" viewBox="0 0 36 36" aria-hidden="true">
    <rect x="6" y="14" width="24" height="17" rx="2" fill="currentColor" />
    <rect x="4" y="10" width="28" height="6" rx="1.5" fill="currentColor" />
    <path d="M18 10v21" stroke="#e0a100" strokeWidth="3" />
    <path d="M18 10q-8-8-9 0M18 10q8-8 9 0" stroke="#e0a100" strokeWidth="2" fill="none" />
  </svg>,
];

/** Home: banners, four category tiles, three sections of up to 4 random products (spec section 2). */
export function Home() {
  return (
    <div className="home">
      <h1 className="visually-hidden">Bakery &amp; Blooms: eggless cakes, flowers and gifts</h1>
      <BannerCarousel />
      <nav aria-label="Shop by category">
        <ul className="tiles">
          {HOME_TILES.map((c, i) => (
            <li key={c.categoryID}>
              <Link to={categoryUrl(c.categoryName)} className={`tile tile--${i + 1}`}>
                {TILE_ICONS[i]}
                <span>{c.categoryName}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {HOME_SECTIONS.map((c, i) => (
        <HomeSection key={c.categoryID} category={c} belowFold={i > 0} />
      ))}
    </div>
  );
}

function HomeSection({ category, belowFold }: { category: Category; belowFold: boolean }) {
  const products = useStableShuffle(useProductsInCategoryId(category.categoryID), HOME_SECTION_SIZE);
  const headingId = `home-section-${category.categoryID}`;
  // Until the store answers (or when the device has none of these yet) the section keeps its place without a spinner.
  return (
    <section className="section" aria-labelledby={headingId}>
      <div className="section__head">
        <h2 id={headingId}>{category.categoryName}</h2>
        <Link to={categoryUrl(category.categoryName)}>
          View all<span className="visually-hidden"> {category.categoryName}</span>
        </Link>
      </div>
      {products && products.length > 0 && (
        <ProductGrid products={products} label={category.categoryName} belowFold={belowFold} />
      )}
    </section>
  );
}
