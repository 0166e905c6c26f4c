/** Row types of what several processes on one database share (migration 20261125_1600). */
export interface MediaFilesTable {
  /** The served file name, `<stem>-<width>.webp`: never reused, so its content never changes. */
  name: string;
  content_type: string;
  content: Buffer;
  /** A strong validator made from the content (quoted, as the header carries it). */
  etag: string;
  created_at: number;
}

export interface ShopSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

export interface PlatformTables {
  media_files: MediaFilesTable;
  shop_secrets: ShopSecretsTable;
}
