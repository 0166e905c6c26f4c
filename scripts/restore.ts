/**
 * `npm run restore -- FILE`: puts a backup back into DATA_DIR (or DATABASE_URL)
 * with the server stopped (api/backup/README.md). What was there is moved to
 * DATA_DIR/before-restore-<time>, never deleted.
 */
import path from 'node:path';
import { RestoreRefused, restoreBackup } from '../api/backup/restore.js';
import { runCommand, settingsOrNull } from './command.js';

async function main(): Promise<number> {
  const [file, ...rest] = process.argv.slice(2);
  if (!file || rest.length) {
    console.error('Usage: npm run restore -- <backup-YYYYMMDD-HHMMSS.tar.gz>');
    return 2;
  }
  // Reading the settings makes a session secret in DATA_DIR when none is set; a restore brings
  // its own (or keeps the folder's, or leaves the next start to make one), so a stand-in keeps a
  // fresh folder empty until then.
  const config = settingsOrNull({
    ...process.env,
    JWT_SECRET: process.env.JWT_SECRET || 'restore'.repeat(8),
  });
  if (!config) return 1;
  try {
    const done = await restoreBackup(path.resolve(file), config);
    const m = done.manifest;
    console.log(
      `Restored ${path.basename(file)} (made ${m.createdAt}: ${m.counts.products} products, ${m.counts.orders} orders, ` +
        `${m.counts.users} users) into ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}.`,
    );
    if (done.migrated) console.log('The backup was older than the code: its database has been migrated.');
    if (done.secrets !== 'restored')
      console.log(
        `The backup was a download, without the shop's secrets: ${
          done.secrets === 'kept'
            ? "this shop's own secrets were kept"
            : 'new ones are made when the shop starts (devices must turn order updates on again)'
        }. Every session has ended (${done.sessionsEnded}): shoppers and admins log in again.`,
      );
    console.log(
      done.setAside
        ? `What was there before is kept in ${done.setAside}.`
        : 'There was no data there before: nothing was set aside.',
    );
    return 0;
  } catch (err) {
    if (err instanceof RestoreRefused) {
      console.error(`Not restored: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

runCommand(main);
