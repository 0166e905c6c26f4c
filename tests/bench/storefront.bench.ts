import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants as zc } from 'node:zlib';
import react from '@vitejs/plugin-react';
import lighthouse from 'lighthouse';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import {
  buildWeb,
  deviceCounts,
  feedSnapshot,
  freePort,
  launchChromium,
  phoneContext,
  type RunningServer,
  startDebuggableChromium,
  startServer,
  tempDir,
  waitForController,
} from '../support/e2e.js';
import { ADMIN_MARKERS, FIRST_SCREEN_BUDGET, firstScreenOf } from '../support/first-screen.js';
import { signInOverCdp, signInWithCart } from '../support/shopper.js';
import { printTrace, tracePage } from './trace-page.js';

/**
 * The storefront's figures, each next to a baseline measured in the same run:
 * (2) Lighthouse mobile scores (default throttling) for home, a category, a
 *     product, search, login and checkout, against a bare Vite + React page
 *     (goal: performance >= 96 on the first five, the other categories 100, on
 *     the median of STOREFRONT_BENCH_LH_RUNS runs, 3 by default);
 * (3) the JavaScript the first screen loads, gzip and brotli, against the bare
 *     page's (goal: FIRST_SCREEN_BUDGET in tests/support/first-screen.ts, and no admin code);
 * (4) a repeat visit offline: time until home shows products (goal < 1 s),
 *     against the first visit online;
 * (5) each page's long tasks on a first visit (checkout: a signed-in shopper's repeat visit), named
 *     (trace-page.ts), against the bare page's.
 * (1), offline search latency, is the `search` suite.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const CARD = 'article.card';
const OFFLINE_RUNS = 5;
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

export async function run(): Promise<void> {
  const work = tempDir('bench');
  let server: RunningServer | null = null;
  let bare: Server | null = null;
  try {
    const appDir = await buildWeb(path.join(work, 'app'), { STOREFRONT_SOURCEMAPS: '1' });
    const bareDir = await buildBarePage(path.join(work, 'bare-src'), path.join(work, 'bare'));
    server = await startServer({ webDir: appDir });
    const barePort = await freePort();
    bare = await serveStatic(bareDir, barePort);
    const bareUrl = `http://127.0.0.1:${barePort}/`;

    const feed = await feedSnapshot(server);
    const product = feed.products[0];
    const category = feed.categories.find((c) =>
      feed.products.some((p) => p.categories.some((pc) => pc.categoryID === c.categoryID)),
    );
    const pages: LighthousePage[] = [
      ['home', `${server.url}/home`],
      [
        'category',
        `${server.url}/products-by-category/${encodeURIComponent(category?.categoryName ?? 'Cakes')}`,
      ],
      ['product', `${server.url}/products-details/${product?.productID ?? 1}`],
      ['search', `${server.url}/search?q=cake`],
      // The account screens' first visit (issue 10): a lazy chunk and its stylesheet after the shell.
      ['login', `${server.url}/login`],
      // Login-guarded: scored as a signed-in shopper with a line in the cart sees it (issue 11).
      [
        'checkout',
        `${server.url}/checkout`,
        (port) => signInOverCdp(port, server as RunningServer, product as FeedProduct),
      ],
    ];
    console.log(`catalogue: ${feed.products.length} products, ${feed.categories.length} categories`);

    // STOREFRONT_BENCH_PARTS=js,offline,lighthouse (any subset) reruns only some parts.
    const parts = (process.env.STOREFRONT_BENCH_PARTS ?? 'js,offline,trace,lighthouse').split(',');
    if (parts.includes('js')) await firstScreenJs(server, bareUrl, appDir);
    if (parts.includes('trace')) await longTasks(pages, bareUrl, appDir, server, product as FeedProduct);
    if (parts.includes('offline')) await offlineRepeatVisit(server);
    if (parts.includes('lighthouse')) await lighthouseScores(pages, bareUrl);
  } finally {
    bare?.close();
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------
// (3) First-screen JavaScript

async function firstScreenJs(server: RunningServer, bareUrl: string, appDir: string): Promise<void> {
  const browser = await launchChromium();
  try {
    const measure = async (url: string, waitForCards: boolean) => {
      // No worker: a first visit, exactly what the network delivers.
      const context = await browser.newContext({
        serviceWorkers: 'block',
        viewport: { width: 390, height: 844 },
      });
      const page = await context.newPage();
      const scripts: { url: string; body: Buffer; wire: number }[] = [];
      page.on('response', async (res) => {
        if (res.request().resourceType() !== 'script') return;
        try {
          const body = await res.body();
          const sizes = await res.request().sizes();
          scripts.push({ url: new URL(res.url()).pathname, body, wire: sizes.responseBodySize });
        } catch {
          // A script that failed to load adds nothing.
        }
      });
      await page.goto(url, { waitUntil: 'load' });
      const cards = waitForCards
        ? await page.waitForSelector(CARD, { timeout: 30_000 }).then(
            () => true,
            () => false,
          )
        : true;
      await page.waitForLoadState('networkidle');
      await context.close();
      const raw = scripts.reduce((s, x) => s + x.body.length, 0);
      const gzip = scripts.reduce((s, x) => s + gzipSync(x.body, { level: 9 }).length, 0);
      const br = scripts.reduce(
        (s, x) => s + brotliCompressSync(x.body, { params: { [zc.BROTLI_PARAM_QUALITY]: 11 } }).length,
        0,
      );
      const wire = scripts.reduce((s, x) => s + x.wire, 0);
      const text = scripts.map((x) => x.body.toString('utf8')).join('\n');
      const admin = ADMIN_MARKERS.filter((m) => text.includes(m));
      return { scripts, raw, gzip, br, wire, admin, cards };
    };
    const app = await measure(`${server.url}/home`, true);
    const base = await measure(bareUrl, false);
    console.log(
      `\n(3) JavaScript of a first visit to home, until network idle (the first screen: the scripts the HTML starts, as tests/e2e/first-screen-budget.test.ts counts them from the build; goal <= ${kib(FIRST_SCREEN_BUDGET)} gzip-9 with the data router, DESIGN.md budgets; no admin code)`,
    );
    for (const s of app.scripts)
      console.log(
        `    ${s.url}  ${kib(s.body.length)} raw, ${gzipSync(s.body, { level: 9 }).length} B gzip-9`,
      );
    console.log(
      `  storefront home: ${app.scripts.length} scripts, raw ${kib(app.raw)}, gzip-9 ${kib(app.gzip)}, brotli-11 ${kib(app.br)}, on the wire ${kib(app.wire)}; admin code: ${app.admin.length ? app.admin.join(', ') : 'none'}`,
    );
    console.log(
      `  baseline bare Vite + React: ${base.scripts.length} scripts, raw ${kib(base.raw)}, gzip-9 ${kib(base.gzip)}, brotli-11 ${kib(base.br)}`,
    );
    // A page that never showed its products (a failed build, a broken screen) loads little and proves nothing.
    const shown = app.cards && app.scripts.length > 0;
    if (!shown)
      console.log('  the home page showed no product card: the figures above are not a first screen');
    // The goal is the first screen's: what the HTML starts (the entry and its preloads). What loads
    // after the page's load (later.ts's start) is in the total above, not in the first screen.
    const first = firstScreenOf(appDir);
    const loaded = new Set(app.scripts.map((x) => x.url.replace(/^\//, '')));
    const missing = first.files.filter((f) => !loaded.has(f.name)).map((f) => f.name);
    if (missing.length) console.log(`  the first screen's files did not load on home: ${missing.join(', ')}`);
    const verdict =
      shown && !missing.length && first.gzip <= FIRST_SCREEN_BUDGET && app.admin.length === 0
        ? 'MET'
        : 'NOT MET';
    console.log(
      `  goal, the first screen (gzip-9 <= ${kib(FIRST_SCREEN_BUDGET)} = ${FIRST_SCREEN_BUDGET.toLocaleString('en')} bytes, no admin code; measured ${first.gzip.toLocaleString('en')} bytes in ${first.files.map((f) => f.name).join(', ')}): ${verdict}`,
    );
    // What a browser that accepts brotli (every current one) actually downloads; the line above is
    // the gzip-only fallback. Both are printed so neither hides the other.
    const wire = shown && app.wire <= 120 * 1024 && app.admin.length === 0 ? 'MET' : 'NOT MET';
    console.log(`  goal as sent (bytes on the wire <= 120 KiB, no admin code): ${wire}`);
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------
// (5) What runs on the main thread: each page's first visit traced on Lighthouse's phone

async function longTasks(
  pages: LighthousePage[],
  bareUrl: string,
  appDir: string,
  server: RunningServer,
  product: FeedProduct,
): Promise<void> {
  const browser = await launchChromium();
  try {
    console.log(
      '\n(5) main thread on a first visit (4x CPU, slow 4G through DevTools): long tasks named by their trace events and the source modules that ran in them',
    );
    printTrace('baseline bare Vite + React', await tracePage(browser, bareUrl, appDir), 2);
    const only = process.env.STOREFRONT_BENCH_PAGES?.split(',');
    for (const [name, url, prepare] of pages.filter(([n]) => !only || only.includes(n))) {
      // Checkout is a signed-in shopper's repeat visit with a line in the cart, as Lighthouse scores it.
      const signIn = prepare
        ? async (page: Page) => {
            await signInWithCart(page, server, product);
            // The visit traced is then the worker's, as Lighthouse's is.
            await waitForController(page);
          }
        : undefined;
      printTrace(name, await tracePage(browser, url, appDir, signIn));
    }
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------
// (4) Repeat visit offline

/** Records, in the page, when the first product card appears (ms after navigation start). */
const CARD_WATCH = `
  (() => {
    const seen = () => {
      if (!window.__cardsAt && document.querySelector(${JSON.stringify(CARD)})) window.__cardsAt = performance.now();
    };
    new MutationObserver(seen).observe(document, { subtree: true, childList: true });
  })();
`;

async function timeToCards(page: Page, url: string): Promise<number | null> {
  await page.goto(url, { waitUntil: 'commit' });
  try {
    await page.waitForFunction(() => (window as unknown as { __cardsAt?: number }).__cardsAt, undefined, {
      timeout: 15_000,
      polling: 50,
    });
  } catch {
    return null;
  }
  return page.evaluate(() => (window as unknown as { __cardsAt: number }).__cardsAt);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? Number.NaN;
}

async function offlineRepeatVisit(server: RunningServer): Promise<void> {
  const browser = await launchChromium();
  try {
    const context = await phoneContext(browser, server.url);
    await context.addInitScript(CARD_WATCH);
    const page = await context.newPage();
    const first = await timeToCards(page, '/home');
    await waitForController(page);
    const deadline = Date.now() + 60_000;
    while ((await deviceCounts(page)).products === 0 && Date.now() < deadline) await page.waitForTimeout(200);
    await context.setOffline(true);
    const times: number[] = [];
    for (let i = 0; i < OFFLINE_RUNS; i++) {
      const t = await timeToCards(page, '/home');
      if (t !== null) times.push(t);
    }
    await context.setOffline(false);
    await context.close();
    console.log('\n(4) repeat visit offline: navigation start until home shows products (goal < 1000 ms)');
    if (times.length < OFFLINE_RUNS) {
      console.log(
        `  products appeared in ${times.length} of ${OFFLINE_RUNS} offline visits (no product cards "${CARD}" on home?)`,
      );
    }
    if (times.length) {
      console.log(
        `  offline repeat visit: median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms over ${times.length} visits (${times.map((t) => t.toFixed(0)).join(', ')})`,
      );
    }
    console.log(
      `  baseline first visit online (empty device): ${first === null ? 'no products shown' : `${first.toFixed(0)} ms`}`,
    );
    const ok = times.length === OFFLINE_RUNS && Math.max(...times) < 1000;
    console.log(`  goal: ${ok ? 'MET' : 'NOT MET'}`);
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------
// (2) Lighthouse

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
/** Issue 21's pages, held to performance >= 96; the others (checkout) to 95. */
const PERF_GOAL_PAGES = ['home', 'category', 'product', 'search', 'login'];

/** A page to score; `prepare` runs first in Lighthouse's browser, and that page keeps its storage. */
type LighthousePage = [name: string, url: string, prepare?: (port: number) => Promise<void>];
type FeedProduct = Awaited<ReturnType<typeof feedSnapshot>>['products'][number];

async function lighthouseScores(pages: LighthousePage[], bareUrl: string): Promise<void> {
  const chrome = await startDebuggableChromium();
  try {
    // STOREFRONT_BENCH_LHR_DIR=/some/dir keeps each page's full report there, to read what costs points.
    const keepDir = process.env.STOREFRONT_BENCH_LHR_DIR;
    if (keepDir) mkdirSync(keepDir, { recursive: true });
    const score = async (url: string, name = 'page', keepStorage = false) => {
      const result = await lighthouse(url, {
        port: chrome.port,
        disableStorageReset: keepStorage,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
      });
      const lhr = result?.lhr;
      if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
      if (keepDir) writeFileSync(path.join(keepDir, `${name}.json`), JSON.stringify(lhr));
      const s = Object.fromEntries(
        CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
      ) as Record<(typeof CATEGORIES)[number], number>;
      const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      // A run Lighthouse could not measure (no score, e.g. a metric it failed to compute) says why.
      const failed =
        lhr.categories.performance?.score == null
          ? (lhr.runtimeError?.code ??
            lhr.audits['first-contentful-paint']?.errorMessage ??
            'no performance score')
          : null;
      // The SEO audits a page fails (a noindex page fails `is-crawlable`, and only that, on purpose).
      const seoFailing = (lhr.categories.seo?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => ref.id);
      return {
        ...s,
        failed,
        seoFailing,
        fcp: metric('first-contentful-paint'),
        lcp: metric('largest-contentful-paint'),
        tbt: metric('total-blocking-time'),
        cls: metric('cumulative-layout-shift'),
      };
    };
    // Lighthouse's own guidance on variability: a single run's performance score swings by several
    // points (here mostly TBT, by when the start-up task lands relative to the first paint), so
    // each page is scored several times and judged on its median run; every run's score is printed.
    const runs = Math.max(1, Number(process.env.STOREFRONT_BENCH_LH_RUNS ?? 3));
    console.log(
      `\n(2) Lighthouse 12 mobile, default (simulated) throttling; median of ${runs} runs per page; goal: performance >= 96 on home, category, product, search and login (issue 21), accessibility and best practices 100, SEO 100 but for noindex pages' is-crawlable`,
    );
    type Scores = Awaited<ReturnType<typeof score>>;
    const line = (name: string, r: Scores, all: Scores[]) =>
      `  ${name.padEnd(9)} perf ${r.performance}  a11y ${r.accessibility}  best ${r['best-practices']}  seo ${r.seo}${r.seoFailing.length ? ` (fails: ${r.seoFailing.join(', ')})` : ''}   FCP ${r.fcp.toFixed(0)} ms  LCP ${r.lcp.toFixed(0)} ms  TBT ${r.tbt.toFixed(0)} ms  CLS ${r.cls.toFixed(3)}   (perf per run: ${all.map((x) => x.performance).join(', ')})`;
    const median = async (url: string, name: string, keepStorage = false) => {
      const all: Scores[] = [];
      // A run Lighthouse failed to measure is named and run again (twice at most), not scored as 0.
      let retries = 0;
      while (all.length < runs) {
        const r = await score(url, `${name}-${all.length + retries + 1}`, keepStorage);
        if (r.failed && retries < 2) {
          retries += 1;
          console.log(`  ${name}: a run failed (${r.failed}); run again`);
          continue;
        }
        all.push(r);
      }
      const sorted = [...all].sort((a, b) => a.performance - b.performance);
      return { all, mid: sorted[Math.floor((sorted.length - 1) / 2)] as Scores };
    };
    const base = await median(bareUrl, 'baseline');
    console.log(line('baseline', base.mid, base.all));
    let met = true;
    // STOREFRONT_BENCH_PAGES=home,search scores only those pages (the baseline is always scored).
    const only = process.env.STOREFRONT_BENCH_PAGES?.split(',');
    for (const [name, url, prepare] of pages.filter(([name]) => !only || only.includes(name))) {
      if (prepare) await prepare(chrome.port);
      const r = await median(url, name, prepare !== undefined);
      console.log(line(name, r.mid, r.all));
      const perfGoal = PERF_GOAL_PAGES.includes(name) ? 96 : 95;
      // Search, the account screens and checkout are noindex (issue 24): Lighthouse counts that against SEO.
      const seoOk = r.mid.seo === 100 || r.mid.seoFailing.every((id) => id === 'is-crawlable');
      if (
        r.mid.performance < perfGoal ||
        r.mid.accessibility < 100 ||
        r.mid['best-practices'] < 100 ||
        !seoOk
      )
        met = false;
    }
    console.log(`  goal (median run): ${met ? 'MET' : 'NOT MET'}`);
  } finally {
    chrome.proc.kill('SIGTERM');
    await new Promise((r) => chrome.proc.once('exit', r));
    rmSync(chrome.dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------
// The baseline: a bare Vite + React page, built in the same run.

async function buildBarePage(srcDir: string, outDir: string): Promise<string> {
  mkdirSync(srcDir, { recursive: true });
  writeFileSync(
    path.join(srcDir, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><meta name="description" content="A bare Vite and React page." /><title>Bare</title></head><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>`,
  );
  writeFileSync(
    path.join(srcDir, 'main.tsx'),
    `import { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')!).render(<main><h1>Hello</h1><p>A bare Vite + React page.</p></main>);\n`,
  );
  const nm = path.join(ROOT, 'node_modules');
  await build({
    configFile: false,
    root: srcDir,
    logLevel: 'warn',
    mode: 'production',
    plugins: [react()],
    resolve: { alias: { react: path.join(nm, 'react'), 'react-dom': path.join(nm, 'react-dom') } },
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}

/** Serves a built folder with brotli/gzip as our server does, so the baseline is not penalised for transfer. */
function serveStatic(dir: string, port: number): Promise<Server> {
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.svg': 'image/svg+xml',
  };
  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    let file = path.join(dir, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(dir) || !existsSync(file)) file = path.join(dir, 'index.html');
    const body = readFileSync(file);
    const type = types[path.extname(file)] ?? 'application/octet-stream';
    const accept = String(req.headers['accept-encoding'] ?? '');
    const headers: Record<string, string> = {
      'content-type': type,
      'cache-control': file.includes(`${path.sep}assets${path.sep}`)
        ? 'public, max-age=31536000, immutable'
        : 'no-cache',
    };
    if (accept.includes('br')) {
      res.writeHead(200, { ...headers, 'content-encoding': 'br' }).end(brotliCompressSync(body));
    } else if (accept.includes('gzip')) {
      res.writeHead(200, { ...headers, 'content-encoding': 'gzip' }).end(gzipSync(body));
    } else {
      res.writeHead(200, headers).end(body);
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}
