/** The server writes the same titles into each page's head (api/pages), so both read domain/page-head. */
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { pageTitle as titleOf } from '../../domain/shop-name.js';
import { shopName } from '../shop-name.js';

/** "Red Velvet Cakes | {the shop's name}" (domain/page-head.ts), with the name the device knows. */
export function pageTitle(title: string | null | undefined): string {
  return titleOf(title, shopName());
}

/**
 * The canonical link the server wrote for the page first loaded follows the
 * shopper to each screen's own address: Chrome's own Share on Android sends the
 * canonical URL, which would otherwise still name the first page. Cheap: one
 * attribute, when the link is there (the worker's offline shell has none).
 */
function followCanonical(pathname: string): void {
  const link = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (link) link.href = `${location.origin}${pathname}`;
}

/**
 * Gives the screen its own browser title (tabs, history, bookmarks and a
 * screen reader's announcement of the new page tell screens apart by it).
 * `undefined` leaves the title alone (the screen's data has not arrived yet);
 * leaving the screen puts the shop's name back, so a screen without a title of
 * its own never shows the previous screen's.
 */
export function useTitle(title: string | null | undefined): void {
  // The router's address, not window.location: the one the screen shows, also under a memory router.
  const { pathname } = useLocation();
  useEffect(() => {
    if (title === undefined) return;
    document.title = pageTitle(title);
    followCanonical(pathname);
  }, [title, pathname]);
  useEffect(
    () => () => {
      document.title = shopName();
    },
    [],
  );
}
