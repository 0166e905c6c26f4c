import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A JSON file the build writes for the server beside Vite's manifest, in the build's `.vite/` (never
 * served): the manifest (`preload.ts`) and the screen shells (`screen-shells.ts`). `fallback` when the
 * build has none (an API-only run, an older build): the server then does without.
 */
export function readBuildInfo<T>(webDir: string, file: string, fallback: T): T {
  try {
    return JSON.parse(readFileSync(path.join(webDir, '.vite', file), 'utf8')) as T;
  } catch {
    return fallback;
  }
}
