import { Link } from 'react-router-dom';
import { categoryUrl } from '../components/Header.js';
import { useCategories } from '../hooks/useProducts.js';
import { useTitle } from '../hooks/useTitle.js';

/** The device's real categories, each linking to its products (a deliberate fix of the spec's sample list). */
export default function AllCategories() {
  useTitle('All Categories');
  const categories = useCategories();
  return (
    <div className="page">
      <h1>All Categories</h1>
      {categories &&
        (categories.length ? (
          <ul className="category-list" aria-label="All categories">
            {categories.map((c) => (
              <li key={c.categoryID}>
                <Link to={categoryUrl(c.categoryName)} className="category-list__link">
                  {c.categoryName}
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="empty">No categories found</p>
        ))}
    </div>
  );
}
