/**
 * `npm run media:move -- database` (or `-- folder`): copies every product image from the other
 * store into this one (api/images/README.md), for a shop that moves to several processes on
 * PostgreSQL, or back. Uses the server's settings (DATA_DIR, DATABASE_URL). Safe while the shop
 * runs and safe to run again: names never change content, so a name already there is skipped.
 * The source is left as it was; set MEDIA_STORE to the target and restart to serve from it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../api/db/database.js';
import { migrateToLatest } from '../api/db/migrate.js';
import { type MediaStoreKind, moveMedia, openMediaStore } from '../api/images/media-store.js';
import { runCommand, settingsOrNull } from './command.js';

async function main(): Promise<number> {
  const target = process.argv[2] as MediaStoreKind | undefined;
  if (target !== 'database' && target !== 'folder') {
    console.error('Usage: npm run media:move -- database   (or: -- folder)');
    return 1;
  }
  const config = settingsOrNull();
  if (!config) return 1;
  const file = path.join(config.dataDir, 'shop.db');
  if (!config.databaseUrl && !existsSync(file)) {
    console.error(`Nothing moved: there is no database at ${file} (start the shop once, or check DATA_DIR).`);
    return 1;
  }
  const db = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: file });
  try {
    await migrateToLatest(db.kysely);
    const source = target === 'database' ? 'folder' : 'database';
    const started = Date.now();
    const moved = await moveMedia(
      openMediaStore(source, config.dataDir, db.kysely),
      openMediaStore(target, config.dataDir, db.kysely),
    );
    console.log(
      `Copied ${moved.copied} images (${moved.bytes} bytes) from the ${source} store to the ${target} store; ` +
        `${moved.alreadyThere} were there already (${Date.now() - started} ms). ` +
        `Set MEDIA_STORE=${target} and restart the shop to serve them from there; the ${source} copy is kept.`,
    );
    return 0;
  } catch (err) {
    console.error(`Images not all moved: ${(err as Error).message}. Run the command again to finish.`);
    return 1;
  } finally {
    await db.destroy();
  }
}

runCommand(main);
