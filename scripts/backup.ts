/**
 * `npm run backup`: one archive of the shop's data into BACKUP_DIR, while the
 * shop runs (api/backup/README.md). Uses the server's settings (DATA_DIR,
 * DATABASE_URL, BACKUP_DIR). Never deletes a backup: pruning is the schedule's. The archive keeps
 * the shop's secrets (a copy downloaded from the admin screen leaves them out).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createBackup } from '../api/backup/backup.js';
import { openDatabase } from '../api/db/database.js';
import { runCommand, settingsOrNull } from './command.js';

async function main(): Promise<number> {
  const config = settingsOrNull();
  if (!config) return 1;
  const file = path.join(config.dataDir, 'shop.db');
  // Opening a missing SQLite file would create an empty database: say there is nothing instead.
  if (!config.databaseUrl && !existsSync(file)) {
    console.error(
      `No backup made: there is no database at ${file} (start the shop once, or check DATA_DIR).`,
    );
    return 1;
  }
  const db = openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: file,
  });
  try {
    const started = Date.now();
    const made = await createBackup(db, config);
    console.log(
      `${path.join(config.backupDir, made.name)}: ${made.size} bytes, ${made.counts.products} products, ` +
        `${made.counts.orders} orders, ${made.counts.users} users, schema ${made.schemaVersion} (${Date.now() - started} ms)`,
    );
    return 0;
  } catch (err) {
    // A missing pg_dump (BackupUnavailable) and a failure alike: one line naming what went wrong.
    console.error(`No backup made: ${(err as Error).message}`);
    return 1;
  } finally {
    await db.destroy();
  }
}

runCommand(main);
