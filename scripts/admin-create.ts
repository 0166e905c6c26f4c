/**
 * `npm run admin:create -- email password`: creates an admin, or promotes an
 * existing account and sets its password. Uses the same settings as the
 * server (DATA_DIR or DATABASE_URL), so it writes to the shop's own database.
 */
import path from 'node:path';
import { AdminInputError, createOrPromoteAdmin } from '../api/accounts/admin.js';
import { openDatabase } from '../api/db/database.js';
import { migrateToLatest } from '../api/db/migrate.js';
import { runCommand, settingsOrNull } from './command.js';

async function main(): Promise<number> {
  const [email, password] = process.argv.slice(2);
  if (!email || !password) {
    console.error('Usage: npm run admin:create -- <email> <password>');
    return 2;
  }
  const config = settingsOrNull();
  if (!config) return 1;
  const db = openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'shop.db'),
  });
  try {
    await migrateToLatest(db.kysely);
    const outcome = await createOrPromoteAdmin(db.kysely, email, password, { setPassword: true });
    const said = { created: 'created', promoted: 'promoted to admin', unchanged: 'already an admin' }[
      outcome
    ];
    console.log(`${email.trim().toLowerCase()}: ${said}${outcome === 'created' ? '' : '; password set'}.`);
    return 0;
  } catch (err) {
    if (err instanceof AdminInputError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    await db.destroy();
  }
}

runCommand(main);
