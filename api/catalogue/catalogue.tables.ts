/** Row types for the catalogue. They never leave the repositories: handlers see `domain/catalogue.ts` shapes. */
import type { Generated } from 'kysely';

export interface CatalogueStateTable {
  id: number;
  version: number;
  /** The version at which the delivery slots or closed dates last changed (the feed sends them past it). */
  slots_version: Generated<number>;
}

export interface CategoriesTable {
  id: Generated<number>;
  name: string;
  version: number;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  /** 1 while the row is the demo seed's, untouched by the owner (api/golive removes those). */
  demo: Generated<number>;
}

export interface ProductsTable {
  id: Generated<number>;
  title: string;
  description: string;
  price: number;
  label_heading: Generated<string>;
  label_description: Generated<string>;
  size_or_weight: Generated<string>;
  extra_media: Generated<string>;
  /** Gifts: 1 when the product takes a message on the cake, 1 for a photo cake. */
  takes_message: Generated<number>;
  photo_cake: Generated<number>;
  /** The product's occasions, comma-joined in the list's order (domain/occasions.ts); '' for none. */
  occasions: Generated<string>;
  /** 1 while the row is the demo seed's, untouched by the owner: every admin write clears it. */
  demo: Generated<number>;
  version: number;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface ProductCategoriesTable {
  product_id: number;
  category_id: number;
}

export interface VariationsTable {
  id: Generated<number>;
  product_id: number;
  name: string;
  value: string;
  price: number;
  position: Generated<number>;
}

export interface ProductImagesTable {
  id: Generated<number>;
  product_id: number;
  file_stem: string;
  /** Comma-separated widths of the variants made for this image, e.g. "160,320,640". */
  widths: string;
  width: number;
  height: number;
  position: Generated<number>;
}

export interface CatalogueTables {
  catalogue_state: CatalogueStateTable;
  categories: CategoriesTable;
  products: ProductsTable;
  product_categories: ProductCategoriesTable;
  variations: VariationsTable;
  product_images: ProductImagesTable;
}
