/**
 * The header's category menu: the Cakes dropdown and the shop's other categories, from the
 * categories the device has (domain/shop-menu.ts), so a category the shop removed is never offered.
 */
import { useRef } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { shopMenu } from '../../domain/shop-menu.js';
import { useDeviceCategories } from '../hooks/useDeviceCategories.js';
import { useDismissDetails } from '../hooks/useDismissDetails.js';
import { categoryUrl } from './category-url.js';

export function CategoryMenu() {
  const dropdown = useRef<HTMLDetailsElement>(null);
  useDismissDetails(dropdown);
  const { cakes, others } = shopMenu(useDeviceCategories());
  return (
    <nav className="menu" aria-label="Categories">
      <ul className="menu__list">
        {cakes.length > 0 && (
          <li>
            <details className="dropdown" ref={dropdown}>
              <summary>Cakes</summary>
              <ul className="dropdown__list">
                {cakes.map((item) => (
                  <li key={item.category.categoryID}>
                    <Link to={categoryUrl(item.category.categoryName)}>{item.label}</Link>
                  </li>
                ))}
              </ul>
            </details>
          </li>
        )}
        {others.map((item) => (
          <li key={item.category.categoryID}>
            <NavLink to={categoryUrl(item.category.categoryName)}>{item.label}</NavLink>
          </li>
        ))}
        <li>
          <NavLink to="/products">All Products</NavLink>
        </li>
        <li>
          <NavLink to="/all-categories">All Categories</NavLink>
        </li>
      </ul>
    </nav>
  );
}
