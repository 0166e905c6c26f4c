/**
 * `npm run bench`: every feature's benchmark, one after another (they share
 * two cores, so never in parallel). Each prints its own figures next to the
 * baseline it measured in the same run. `npm run bench -- catalogue` runs one.
 */
const suites = [
  'catalogue',
  'catalogue-sync',
  'orders',
  'search',
  'storefront',
  'outbox',
  'admin',
  'pages',
  'hosts',
] as const;

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const chosen = wanted.length ? suites.filter((s) => wanted.includes(s)) : suites;
  if (wanted.length && chosen.length !== wanted.length) {
    console.error(`Unknown suite in ${wanted.join(', ')}; choose from ${suites.join(', ')}`);
    process.exit(2);
  }
  for (const name of chosen) {
    console.log(`\n=== bench: ${name} ===`);
    const started = Date.now();
    const mod = (await import(`./${name}.bench.ts`)) as { run(): Promise<void> };
    await mod.run();
    console.log(`=== ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
