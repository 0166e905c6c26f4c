/**
 * What the shop's commands (`npm run backup`, `restore`, `admin:create`) share: the server's own
 * settings, a settings mistake said in one line rather than a stack trace, and the exit code.
 */
import { type Config, ConfigError, loadConfig } from '../api/config.js';

export function settingsOrNull(env: Parameters<typeof loadConfig>[0] = process.env): Config | null {
  try {
    return loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    return null;
  }
}

/** Runs a command's `main` and exits with its code; an unexpected error is printed whole, code 1. */
export function runCommand(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
