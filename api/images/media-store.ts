/**
 * Where the product images' WebP variants live. Two drivers behind one small interface:
 * - `folder`: files under `DATA_DIR/media` (the default on SQLite, where there is one process);
 * - `database`: rows of `media_files` (the default on PostgreSQL), so an image uploaded through
 *   one process is served by every other one, each with its own disk.
 * Names are generated and never reused (`<stem>-<width>.webp`), so a stored name's content never
 * changes: writes never overwrite, and readers may cache forever.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export type MediaStoreKind = 'folder' | 'database';

export interface StoredMedia {
  content: Buffer;
  contentType: string;
  etag: string;
}

export interface MediaStore {
  readonly kind: MediaStoreKind;
  put(name: string, content: Buffer): Promise<void>;
  /** Removes these names; a name already gone is not an error. */
  remove(names: readonly string[]): Promise<void>;
  get(name: string): Promise<StoredMedia | null>;
  /** Every stored name (the move between stores walks it). */
  names(): Promise<string[]>;
}

/** Served names: what `newStem()` and the variant widths make, nothing that could walk a path. */
export const MEDIA_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,120}\.webp$/;

export function mediaETag(content: Buffer): string {
  return `"${createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;
}

export class FolderMediaStore implements MediaStore {
  readonly kind = 'folder';
  constructor(readonly dir: string) {}

  async put(name: string, content: Buffer): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    // Written under a temporary name first: a reader (or a crash) never meets half a picture.
    const partial = path.join(this.dir, `.${name}.partial`);
    await writeFile(partial, content);
    await rename(partial, path.join(this.dir, name));
  }

  async remove(names: readonly string[]): Promise<void> {
    await Promise.all(names.map((n) => rm(path.join(this.dir, n), { force: true })));
  }

  async get(name: string): Promise<StoredMedia | null> {
    if (!MEDIA_NAME.test(name)) return null;
    const content = await readFile(path.join(this.dir, name)).catch(() => null);
    return content && { content, contentType: 'image/webp', etag: mediaETag(content) };
  }

  async names(): Promise<string[]> {
    const entries = await readdir(this.dir).catch(() => [] as string[]);
    return entries.filter((n) => MEDIA_NAME.test(n)).sort();
  }
}

export class DatabaseMediaStore implements MediaStore {
  readonly kind = 'database';
  constructor(private readonly db: Kysely<Database>) {}

  async put(name: string, content: Buffer): Promise<void> {
    await this.db
      .insertInto('media_files')
      .values({
        name,
        content_type: 'image/webp',
        content,
        etag: mediaETag(content),
        created_at: Date.now(),
      })
      // A name's content never changes, so a second write of the same name (a retried move) is a no-op.
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }

  async remove(names: readonly string[]): Promise<void> {
    if (!names.length) return;
    await this.db
      .deleteFrom('media_files')
      .where('name', 'in', [...names])
      .execute();
  }

  async get(name: string): Promise<StoredMedia | null> {
    if (!MEDIA_NAME.test(name)) return null;
    const row = await this.db
      .selectFrom('media_files')
      .select(['content', 'content_type', 'etag'])
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? { content: Buffer.from(row.content), contentType: row.content_type, etag: row.etag } : null;
  }

  async names(): Promise<string[]> {
    const rows = await this.db.selectFrom('media_files').select('name').orderBy('name').execute();
    return rows.map((r) => r.name);
  }
}

export function mediaDirOf(dataDir: string): string {
  return path.join(dataDir, 'media');
}

export function openMediaStore(kind: MediaStoreKind, dataDir: string, db: Kysely<Database>): MediaStore {
  return kind === 'database' ? new DatabaseMediaStore(db) : new FolderMediaStore(mediaDirOf(dataDir));
}

/**
 * Copies every image from one store to the other (`npm run media:move`). Each name is
 * read back from the target and compared before it counts as moved; the source is left
 * as it was, so a shop can go back until its operator removes the old copy.
 */
export async function moveMedia(
  from: MediaStore,
  to: MediaStore,
): Promise<{ copied: number; alreadyThere: number; bytes: number }> {
  const there = new Set(await to.names());
  let copied = 0;
  let alreadyThere = 0;
  let bytes = 0;
  for (const name of await from.names()) {
    if (there.has(name)) {
      alreadyThere++;
      continue;
    }
    const item = await from.get(name);
    if (!item) continue;
    await to.put(name, item.content);
    const back = await to.get(name);
    if (!back || back.etag !== item.etag)
      throw new Error(`${name} did not arrive intact in the ${to.kind} store`);
    copied++;
    bytes += item.content.length;
  }
  return { copied, alreadyThere, bytes };
}
