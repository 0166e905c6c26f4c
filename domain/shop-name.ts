/**
 * The shop's name until its owner writes one (the profile's default, `domain/shop-profile.ts`), in
 * a module of its own: the first screen's header reads it, and must not take the profile's schema
 * or the page heads' texts with it.
 */
export const DEFAULT_SHOP_NAME = 'Bakery & Blooms';

/** "Red Velvet Cakes | {shop}"; the shop's name alone for an empty page title. */
export function pageTitle(title: string | null | undefined, shopName: string = DEFAULT_SHOP_NAME): string {
  const own = title?.trim();
  return own ? `${own} | ${shopName}` : shopName;
}
