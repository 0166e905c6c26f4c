/**
 * What page-head tests and `scripts/area-sizes.ts` serve in place of the built app: the smallest
 * shell the server splits around its head (api/pages/shell.ts), with an entry script as a build has.
 */
export const PAGE_SHELL = `<!doctype html>
<html lang="en-IN">
  <head>
    <meta charset="UTF-8" />
    <title>Bakery &amp; Blooms</title>
  </head>
  <body><div id="root"></div><script type="module" src="/assets/index.js"></script></body>
</html>`;

/** A distinct town name of letters for every number: "Nagar A", "Nagar B", … "Nagar Ba", … */
export function townName(n: number): string {
  let out = '';
  let rest = n;
  do {
    out = String.fromCharCode(97 + (rest % 26)) + out;
    rest = Math.floor(rest / 26);
  } while (rest > 0);
  return `Nagar ${out.charAt(0).toUpperCase()}${out.slice(1)}`;
}
