import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The first screen's JavaScript budget (DESIGN.md "Budgets"), in bytes of gzip level 9: what a
 * phone downloads before the shop can show anything, the build's entry and every chunk it imports
 * statically (the entry the built index.html's inline start imports, and its `<link
 * rel="modulepreload">`s). React, react-dom, React Router's data router and Dexie alone are about
 * 127 KiB of it.
 */
export const FIRST_SCREEN_BUDGET = 140 * 1024;

/** Strings only the admin screens or admin endpoints use; none may load on the first screen. */
export const ADMIN_MARKERS = [
  'AddProductForDash',
  'UpdateProductDetails',
  'add-new-category',
  'all-admin-orders',
  'DeleteProduct',
];

export interface FirstScreen {
  files: { name: string; gzip: number }[];
  /** The sum of `files`' gzip-9 sizes. */
  gzip: number;
  /** Admin chunks among the files, and admin markers found in them. */
  admin: string[];
}

/** The first screen of the build in `webDir`, counted from its files (no browser, no timing). */
export function firstScreenOf(webDir: string): FirstScreen {
  const html = readFileSync(path.join(webDir, 'index.html'), 'utf8');
  const names = [
    ...html.matchAll(/<script type="module"[^>]*\ssrc="\/([^"]+\.js)"/g),
    // The entry as the shell starts it after its first paint (vite.config.ts, startAfterFirstPaint).
    ...html.matchAll(/<script>[^<]*\bimport\("\/([^"]+\.js)"\)/g),
    ...html.matchAll(/<link rel="modulepreload"[^>]*\shref="\/([^"]+\.js)"/g),
  ].map((m) => m[1] as string);
  // A shell whose start this count cannot find would measure nothing and pass any budget.
  if (names.length === 0) throw new Error(`no entry script found in ${path.join(webDir, 'index.html')}`);
  const files = [...new Set(names)].map((name) => {
    const body = readFileSync(path.join(webDir, name));
    return { name, body, gzip: gzipSync(body, { level: 9 }).length };
  });
  const text = files.map((f) => f.body.toString('utf8')).join('\n');
  return {
    files: files.map(({ name, gzip }) => ({ name, gzip })),
    gzip: files.reduce((sum, f) => sum + f.gzip, 0),
    admin: [
      ...files.filter((f) => /(^|\/)admin-/.test(f.name)).map((f) => f.name),
      ...ADMIN_MARKERS.filter((m) => text.includes(m)),
    ],
  };
}

/** What is wrong with a first screen (nothing: an empty list). */
export function firstScreenProblems(
  screen: Pick<FirstScreen, 'gzip' | 'admin'>,
  budget = FIRST_SCREEN_BUDGET,
): string[] {
  const problems: string[] = [];
  if (screen.gzip > budget)
    problems.push(
      `the first screen's JavaScript is ${screen.gzip.toLocaleString('en')} bytes gzip-9, over its budget of ${budget.toLocaleString('en')}`,
    );
  if (screen.admin.length) problems.push(`admin code on the first screen: ${screen.admin.join(', ')}`);
  return problems;
}
