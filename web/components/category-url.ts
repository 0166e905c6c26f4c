/** A category's page address: by name (trimmed and case-insensitive when matched, domain/shop.ts). */
export function categoryUrl(name: string): string {
  return `/products-by-category/${encodeURIComponent(name)}`;
}
