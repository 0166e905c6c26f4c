import { useEffect } from 'react';

/** The shop's name: the whole title of the home page, and every other page's suffix. */
export const SITE_TITLE = 'Bakery & Blooms';

/** "Red Velvet Cakes | Bakery & Blooms"; the shop's name alone for an empty page title. */
export function pageTitle(title: string | null | undefined): string {
  const own = title?.trim();
  return own ? `${own} | ${SITE_TITLE}` : SITE_TITLE;
}

/**
 * Gives the screen its own browser title (tabs, history, bookmarks and a
 * screen reader's announcement of the new page tell screens apart by it).
 * `undefined` leaves the title alone (the screen's data has not arrived yet);
 * leaving the screen puts the shop's name back, so a screen without a title of
 * its own never shows the previous screen's.
 */
export function useTitle(title: string | null | undefined): void {
  useEffect(() => {
    if (title === undefined) return;
    document.title = pageTitle(title);
  }, [title]);
  useEffect(
    () => () => {
      document.title = SITE_TITLE;
    },
    [],
  );
}
