/** Row types of the database media store (`media-store.ts`). */
export interface MediaFilesTable {
  /** The served file name, `<stem>-<width>.webp`: never reused, so its content never changes. */
  name: string;
  content_type: string;
  content: Buffer;
  /** A strong validator made from the content (quoted, as the header carries it). */
  etag: string;
  created_at: number;
}

export interface MediaTables {
  media_files: MediaFilesTable;
}
