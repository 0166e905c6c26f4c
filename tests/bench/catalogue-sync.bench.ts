import { writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { build } from 'vite';
import { openDatabase } from '../../api/db/database.js';
import { migrateToLatest } from '../../api/db/migrate.js';
import { FolderMediaStore, mediaDirOf } from '../../api/images/media-store.js';
import { seedDemoCatalogue } from '../../api/seed/demo.js';
import { seedSyntheticProducts } from '../../api/seed/synthetic.js';
import {
  adminToken,
  buildWeb,
  deviceCounts,
  launchChromium,
  phoneContext,
  type RunningServer,
  setPrice,
  startServer,
  tempDir,
} from '../support/e2e.js';

/**
 * `npm run bench -- catalogue-sync` (issue 17): a phone's first visit to a shop of N products,
 * as a new shopper meets it: Lighthouse's mobile throttling (4x CPU slowdown, 1.6 Mbps down,
 * 750 kbps up, 150 ms round trip) applied through the DevTools protocol, cold cache (a new
 * browser context per shop). The demo shop (86 products) is measured first as the baseline, then
 * 10,000 and 50,000 synthetic products (api/seed/synthetic.ts).
 *
 * Per shop: the first product card on screen, all N products in IndexedDB (both after
 * navigation start), bytes transferred (page and worker), long tasks on the page until the
 * catalogue is in (total and longest), storage used, search per keystroke over the whole
 * catalogue (the app's SearchIndex, in the page, throttled), and a delta sync after one
 * product changes (bytes, and the time the device spent applying it).
 *
 * CATALOGUE_SYNC_SIZES=10000 (comma-separated; `demo` is always first) picks the shops;
 * CATALOGUE_SYNC_QUICK=1 skips 50,000. CATALOGUE_SYNC_PROFILE=<dir> writes CPU profiles of
 * the page and the worker during each first visit there and prints where their time went.
 */
const CARD = 'article.card';
/**
 * Lighthouse's mobile slowdown. It is relative to the machine the bench runs on, so the same 4x is a
 * faster phone on a faster machine: CATALOGUE_SYNC_CPU_SLOWDOWN=<n> runs a slower one (the goals'
 * figures are for 4x). Each run prints the BenchmarkIndex of the machine and of the phone it
 * emulates, and the slowdown Lighthouse's calibration would pick here, so runs on two machines can
 * be told apart.
 */
const CPU_SLOWDOWN = Number(process.env.CATALOGUE_SYNC_CPU_SLOWDOWN ?? 4);
const NETWORK = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
// The last three take the new rule's wider paths: a short form (the shop's synonyms), a typo, and
// two words found apart.
const QUERIES = [
  'chocolate cake',
  'rose bouquet',
  'hamper 123',
  'eggless',
  'jasmine lotus',
  'bday cake',
  'chocolte',
  'cake birthday',
];
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const s = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(2)} s`);

/**
 * Lighthouse's BenchmarkIndex, the measure its docs use to say what phone a CPU slowdown emulates on
 * a given machine (docs/throttling.md, "Calibrating the CPU slowdown"; computeBenchmarkIndex in
 * core/lib/page-functions.js): half a second building 10,000-character strings (garbage-collector
 * heavy), half a second copying 100,000 integers between arrays, each as iterations per second / 10,
 * averaged. Its docs: 1000+ a desktop-class machine, 800+ a high-end Android phone, 125+ a mid-tier one.
 * A string: evaluated in a page.
 */
const BENCHMARK_INDEX = `(() => {
  const strings = () => {
    const start = Date.now();
    let n = 0;
    while (Date.now() - start < 500) {
      let s = '';
      for (let j = 0; j < 10000; j++) s += 'a';
      if (s.length === 1) throw new Error('kept: the loop must not be optimized away');
      n++;
    }
    return Math.round(n / 10 / ((Date.now() - start) / 1000));
  };
  const copies = () => {
    const a = [];
    const b = [];
    for (let i = 0; i < 100000; i++) a[i] = b[i] = i;
    const start = Date.now();
    let n = 0;
    // The clock read every tenth copy only, as Lighthouse does.
    while (n % 10 !== 0 || Date.now() - start < 500) {
      const from = n % 2 === 0 ? a : b;
      const to = n % 2 === 0 ? b : a;
      for (let j = 0; j < from.length; j++) to[j] = from[j];
      n++;
    }
    return Math.round(n / 10 / ((Date.now() - start) / 1000));
  };
  return (strings() + copies()) / 2;
})()`;

/**
 * The slowdown Lighthouse's calibration table asks for on a host of this index to emulate its mobile
 * reference phone (the PageSpeed Insights team's calculator linked from docs/throttling.md: 1300 -> 3x,
 * 1533 -> 4x, 2000 -> 6x, 800 -> 2x, 150 -> 1x, linear between).
 */
function lighthouseSlowdown(hostIndex: number): number | null {
  if (hostIndex >= 1300) return 3 + (hostIndex - 1300) / 233;
  if (hostIndex >= 800) return 2 + (hostIndex - 800) / 500;
  if (hostIndex >= 150) return 1 + (hostIndex - 150) / 650;
  return null;
}

/** The BenchmarkIndex of this machine slowed `rate` times (the median of three). */
async function benchmarkIndex(browser: Browser, rate: number): Promise<number> {
  const page = await browser.newPage();
  try {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) runs.push((await page.evaluate(BENCHMARK_INDEX)) as number);
    return pct(runs, 50);
  } finally {
    await page.close();
  }
}

/** CATALOGUE_SYNC_WATERFALL=1 prints each first visit's requests (page and its workers) until all products were in. */
const WATERFALL = process.env.CATALOGUE_SYNC_WATERFALL === '1';

/** The page's and its dedicated workers' requests, on the DevTools protocol's network clock (seconds). */
class Waterfall {
  private rows = new Map<string, { url: string; start: number; end: number | null; bytes: number }>();
  sent(id: string, url: string, at: number): void {
    if (!this.rows.has(id)) this.rows.set(id, { url, start: at, end: null, bytes: 0 });
  }
  finished(id: string, at: number, bytes: number): void {
    const row = this.rows.get(id);
    if (row) Object.assign(row, { end: at, bytes });
  }
  /** From the document's request; `allIn` (ms after navigation start) ends the list. */
  print(label: string, allIn: number | null): void {
    const rows = [...this.rows.entries()].sort((a, b) => a[1].start - b[1].start);
    const t0 = rows[0]?.[1].start ?? 0;
    console.log(
      `  ${label}: requests until all products were in (${s(allIn)}), s after the document's request`,
    );
    for (const [id, r] of rows) {
      if (allIn !== null && (r.start - t0) * 1000 > allIn) break;
      const end = r.end === null ? '   ...' : (r.end - t0).toFixed(2).padStart(6);
      const url = new URL(r.url, 'http://x').pathname + new URL(r.url, 'http://x').search;
      console.log(
        `    ${(r.start - t0).toFixed(2).padStart(6)} ${end} ${kib(r.bytes).padStart(10)}  ${id.split(' ')[0]?.padEnd(6)} ${url.slice(0, 90)}`,
      );
    }
  }
}

/** Records, in the page, when the first card appears and every long task (both in ms after navigation start). */
const PAGE_WATCH = `
  (() => {
    window.__longTasks = [];
    const seen = () => {
      if (!window.__cardsAt && document.querySelector(${JSON.stringify(CARD)})) window.__cardsAt = performance.now();
    };
    new MutationObserver(seen).observe(document, { subtree: true, childList: true });
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });
    } catch {}
  })();
`;

interface Figures {
  products: number;
  firstCard: number | null;
  allIn: number | null;
  bytes: number;
  feedBytes: number;
  feedRequests: number;
  longTotal: number;
  longMax: number;
  longCount: number;
  /** Long tasks over 200 ms: when they started and how long they took (ms). */
  longOver200: { start: number; duration: number }[];
  storage: number;
  idbStorage: number | null;
  searchP95: number | null;
  searchMax: number | null;
  /** The three slowest keystrokes: the query so far and its time (ms). */
  searchSlowest: { key: string; ms: number }[];
  searchBuild: number | null;
  deltaBytes: number | null;
  deltaApply: number | null;
  deltaTotal: number | null;
  /** The same delta applied by the app's sync code on the throttled page (pageOnly visits). */
  pageDeltaApply: number | null;
  workerThrottled: boolean;
  /** CPU time the page's dedicated sync worker spent until all products were in (unthrottled; null: none ran). */
  syncWorkerBusy: number | null;
}

/** A visit that measured only when the products were in (pageOnly). */
const NO_FIGURES: Figures = {
  products: 0,
  firstCard: null,
  allIn: null,
  bytes: 0,
  feedBytes: 0,
  feedRequests: 0,
  longTotal: 0,
  longMax: 0,
  longCount: 0,
  longOver200: [],
  storage: 0,
  idbStorage: null,
  searchP95: null,
  searchMax: null,
  searchSlowest: [],
  searchBuild: null,
  deltaBytes: null,
  deltaApply: null,
  deltaTotal: null,
  pageDeltaApply: null,
  workerThrottled: false,
  syncWorkerBusy: null,
};

function pct(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

async function bundlePage(): Promise<string> {
  const out = await mkdtemp(path.join(tmpdir(), 'catalogue-sync-bench-'));
  try {
    await build({
      configFile: false,
      logLevel: 'warn',
      build: {
        outDir: out,
        emptyOutDir: true,
        minify: true,
        lib: {
          entry: path.join(import.meta.dirname, 'catalogue-sync-page.ts'),
          formats: ['iife'],
          name: 'catalogueSyncPage',
          fileName: () => 'page.js',
        },
      },
    });
    return await readFile(path.join(out, 'page.js'), 'utf8');
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** A data folder holding the demo shop topped up with synthetic products to `total`, ready for the server to open. */
async function seededData(total: number): Promise<{ dir: string; products: number }> {
  const dir = tempDir('sync-bench-data');
  const db = openDatabase({ databaseUrl: null, sqliteFile: path.join(dir, 'shop.db') });
  try {
    await migrateToLatest(db.kysely);
    const demo = await seedDemoCatalogue(db.kysely, 'sqlite', new FolderMediaStore(mediaDirOf(dir)));
    const extra = Math.max(0, total - demo.products);
    if (extra > 0) await seedSyntheticProducts(db.kysely, 'sqlite', extra);
    return { dir, products: demo.products + extra };
  } finally {
    await db.destroy();
  }
}

/**
 * The service worker's own DevTools session (through the browser's target API: Playwright gives
 * no session for a worker). Page throttling does not reach a worker, so the worker gets the same
 * CPU slowdown and network here, and its profile when asked.
 */
class WorkerSession {
  private nextId = 1;
  private pending = new Map<number, (v: { result?: unknown; error?: { message: string } }) => void>();
  private listeners = new Map<string, ((params: unknown) => void)[]>();
  on(method: string, listener: (params: unknown) => void): void {
    this.listeners.set(method, [...(this.listeners.get(method) ?? []), listener]);
  }
  constructor(
    private readonly browserSession: CDPSession,
    private readonly sessionId: string,
  ) {
    browserSession.on('Target.receivedMessageFromTarget', (e) => {
      if (e.sessionId !== this.sessionId) return;
      const msg = JSON.parse(e.message) as {
        id?: number;
        method?: string;
        params?: unknown;
        result?: unknown;
        error?: { message: string };
      };
      if (msg.id !== undefined) this.pending.get(msg.id)?.(msg);
      else if (msg.method) for (const listener of this.listeners.get(msg.method) ?? []) listener(msg.params);
    });
  }
  async send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    const answer = new Promise<{ result?: unknown; error?: { message: string } }>((resolve) =>
      this.pending.set(id, resolve),
    );
    await this.browserSession.send('Target.sendMessageToTarget', {
      sessionId: this.sessionId,
      message: JSON.stringify({ id, method, params }),
    });
    const msg = await answer;
    if (msg.error) throw new Error(`${method}: ${msg.error.message}`);
    return msg.result as T;
  }
}

async function watchWorker(
  browser: Browser,
  profile: boolean,
): Promise<{ worker: Promise<WorkerSession | null>; throttled: () => boolean }> {
  const session = await browser.newBrowserCDPSession();
  let throttled = false;
  let resolve: (w: WorkerSession | null) => void = () => undefined;
  const worker = new Promise<WorkerSession | null>((r) => {
    resolve = r;
  });
  session.on('Target.targetCreated', async ({ targetInfo }) => {
    if (targetInfo.type !== 'service_worker') return;
    try {
      const { sessionId } = await session.send('Target.attachToTarget', {
        targetId: targetInfo.targetId,
        flatten: false,
      });
      const w = new WorkerSession(session, sessionId);
      await w.send('Network.enable');
      await w.send('Network.emulateNetworkConditions', NETWORK);
      try {
        await w.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
        throttled = true;
      } catch {
        throttled = false;
      }
      if (profile) {
        await w.send('Profiler.enable');
        await w.send('Profiler.setSamplingInterval', { interval: 200 });
        await w.send('Profiler.start');
      }
      resolve(w);
    } catch {
      resolve(null);
    }
  });
  await session.send('Target.setDiscoverTargets', { discover: true });
  return { worker, throttled: () => throttled };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Self time per function (name and file), the heaviest first. */
function heaviest(profile: CpuProfile, top = 12): string[] {
  const total = profile.samples?.length ?? profile.nodes.reduce((n, x) => n + (x.hitCount ?? 0), 0);
  const perSample = (profile.endTime - profile.startTime) / 1000 / Math.max(1, total);
  const self = new Map<string, number>();
  for (const n of profile.nodes) {
    const file = n.callFrame.url.split('/').pop() ?? '';
    const key = `${n.callFrame.functionName || '(anonymous)'} ${file}${file ? `:${n.callFrame.lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + (n.hitCount ?? 0) * perSample);
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, ms]) => `${ms.toFixed(0).padStart(7)} ms  ${k}`);
}

/** Busy (not idle) time in a CPU profile, in ms, of the samples taken before `until` (profile clock, µs). */
function busyMs(profile: CpuProfile, until = Number.POSITIVE_INFINITY): number {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  let t = profile.startTime;
  let busy = 0;
  profile.samples?.forEach((id, i) => {
    const dt = profile.timeDeltas?.[i] ?? 0;
    t += dt;
    if (t <= until && !idle.has(id)) busy += dt;
  });
  return busy / 1000;
}

/**
 * The page's dedicated workers (the catalogue sync's, sw/sync-worker.ts), held at their start until
 * they have the phone's network and a profiler. Chromium refuses Emulation.setCPUThrottlingRate on a
 * worker target ("not found"; the throttler slows the page's main thread only), so a worker runs at
 * the machine's speed; its profile gives the CPU time it spent, which the report scales by the
 * slowdown into an estimate of the throttled phone (see report()).
 */
async function watchDedicatedWorkers(
  cdp: CDPSession,
  profile: boolean,
  waterfall: Waterfall,
): Promise<{ sessions: WorkerSession[]; feed: { bytes: number; requests: number }; bytes: () => number }> {
  const sessions: WorkerSession[] = [];
  const feed = { bytes: 0, requests: 0 };
  let bytes = 0;
  const urls = new Map<string, string>();
  cdp.on('Target.attachedToTarget', async ({ sessionId, targetInfo }) => {
    const w = new WorkerSession(cdp, sessionId);
    try {
      if (targetInfo.type === 'worker') {
        // Its requests are not the page's: counted here, like the service worker's below.
        w.on('Network.requestWillBeSent', (p) => {
          const e = p as { requestId: string; request: { url: string }; timestamp: number };
          urls.set(e.requestId, e.request.url);
          waterfall.sent(`worker ${e.requestId}`, e.request.url, e.timestamp);
        });
        w.on('Network.loadingFinished', (p) => {
          const e = p as { requestId: string; encodedDataLength: number; timestamp: number };
          waterfall.finished(`worker ${e.requestId}`, e.timestamp, e.encodedDataLength);
          bytes += e.encodedDataLength;
          if (urls.get(e.requestId)?.includes('/api/sync/catalogue')) {
            feed.bytes += e.encodedDataLength;
            feed.requests += 1;
          }
        });
        await w.send('Network.enable').catch(() => undefined);
        await w.send('Network.emulateNetworkConditions', NETWORK).catch(() => undefined);
        await w.send('Profiler.enable');
        await w.send('Profiler.setSamplingInterval', { interval: profile ? 200 : 1000 });
        await w.send('Profiler.start');
        sessions.push(w);
      }
    } finally {
      await w.send('Runtime.runIfWaitingForDebugger').catch(() => undefined);
    }
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
  return { sessions, feed, bytes: () => bytes };
}

/**
 * When the device last finished a sync (null: not yet), read from the page: a first visit's run that
 * stops after the first page writes none, so this is the moment the whole catalogue is in. Cheap to
 * poll (one meta row), unlike counting products, which would decode the catalogue on the throttled
 * page every poll.
 */
async function lastSynced(page: Page): Promise<number | null> {
  return page.evaluate(async () => {
    const dbs = await indexedDB.databases();
    if (!dbs.some((d) => d.name === 'storefront')) return null;
    return new Promise<number | null>((resolve) => {
      const open = indexedDB.open('storefront');
      open.onerror = () => resolve(null);
      open.onsuccess = () => {
        const idb = open.result;
        if (!idb.objectStoreNames.contains('meta')) {
          idb.close();
          resolve(null);
          return;
        }
        const req = idb.transaction('meta', 'readonly').objectStore('meta').get('lastSyncedAt');
        req.onsuccess = () => {
          idb.close();
          resolve(typeof req.result?.value === 'number' ? req.result.value : null);
        };
        req.onerror = () => {
          idb.close();
          resolve(null);
        };
      };
    });
  });
}

async function firstVisit(
  browser: Browser,
  server: RunningServer,
  expected: number,
  searchScript: string,
  profileDir: string | null,
  label: string,
  pageOnly = false,
): Promise<Figures> {
  const context = await phoneContext(browser, server.url);
  await context.addInitScript(PAGE_WATCH);
  // Chromium slows only the page's main thread (see watchDedicatedWorkers): without Worker the page
  // runs the whole sync itself (web/pwa/start.ts), all of it at the phone's CPU speed.
  if (pageOnly) await context.addInitScript("Object.defineProperty(window, 'Worker', { value: undefined });");
  // Keeps the finished sync worker alive so that its profile can be read (see syncWorkerBusy).
  await context.addInitScript('Worker.prototype.terminate = function () {};');
  const workerWatch = await watchWorker(browser, profileDir !== null);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  const waterfall = new Waterfall();
  const dedicated = await watchDedicatedWorkers(cdp, profileDir !== null, waterfall);

  const urls = new Map<string, string>();
  let bytes = 0;
  let feedBytes = 0;
  let feedRequests = 0;
  cdp.on('Network.requestWillBeSent', (e) => {
    urls.set(e.requestId, e.request.url);
    waterfall.sent(`page ${e.requestId}`, e.request.url, e.timestamp);
  });
  cdp.on('Network.loadingFinished', (e) => {
    waterfall.finished(`page ${e.requestId}`, e.timestamp, e.encodedDataLength);
    bytes += e.encodedDataLength;
    if (urls.get(e.requestId)?.includes('/api/sync/catalogue')) {
      feedBytes += e.encodedDataLength;
      feedRequests += 1;
    }
  });
  // What the worker fetches (its install sync, card images) is on the same phone's network.
  let workerBytes = 0;
  let workerFeed: { bytes: number; requests: number } = { bytes: 0, requests: 0 };
  context.on('requestfinished', async (req) => {
    if (!req.serviceWorker()) return;
    const sizes = await req.sizes().catch(() => null);
    if (!sizes) return;
    const n = sizes.responseBodySize + sizes.responseHeadersSize;
    workerBytes += n;
    if (req.url().includes('/api/sync/catalogue')) {
      workerFeed = { bytes: workerFeed.bytes + n, requests: workerFeed.requests + 1 };
    }
  });

  if (profileDir) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    // The page-only run profiles its delta (below); its first visit is the other run's.
    if (!pageOnly) await cdp.send('Profiler.start');
  }
  await page.goto('/home', { waitUntil: 'commit' });
  const deadline = Date.now() + 180_000;
  let allIn: number | null = null;
  while (Date.now() < deadline) {
    const [synced, now] = [await lastSynced(page), await page.evaluate(() => performance.now())];
    if (synced !== null) {
      allIn = now;
      break;
    }
    await page.waitForTimeout(100);
  }
  if (WATERFALL) waterfall.print(label, allIn);
  const stored = (await deviceCounts(page)).products;
  if (allIn !== null && stored !== expected) {
    throw new Error(`the sync ended with ${stored} products on the device, not the shop's ${expected}`);
  }
  if (pageOnly) {
    // A later delta sync on the throttled page: one product changes on the server, and the app's sync
    // code applies it at the phone's CPU speed (see deltaSync in catalogue-sync-page.ts).
    let pageDelta: { applyMs: number; products: number; bytes: number } | null = null;
    if (allIn !== null) {
      // The first visit's own follow-up syncs (its service worker's install) go first.
      await page.waitForTimeout(3000);
      await setPrice(server, await adminToken(server), 5, 1234);
      await page.evaluate(searchScript);
      if (profileDir) await cdp.send('Profiler.start');
      pageDelta = await page.evaluate(() =>
        (
          globalThis as unknown as {
            catalogueSyncBench: {
              deltaSync(): Promise<{ applyMs: number; products: number; bytes: number }>;
            };
          }
        ).catalogueSyncBench.deltaSync(),
      );
      if (profileDir) {
        const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
        const file = path.join(profileDir, `${label}-page-delta.cpuprofile`);
        writeFileSync(file, JSON.stringify(profile));
        console.log(`  the delta applied on the page, self time (${file}):`);
        for (const line of heaviest(profile)) console.log(`    ${line}`);
      }
      if (pageDelta.products !== 1)
        throw new Error(`the delta sync changed ${pageDelta.products} products, not 1`);
    }
    await context.close();
    return { ...NO_FIGURES, products: expected, allIn, pageDeltaApply: pageDelta?.applyMs ?? null };
  }
  // The sync worker's CPU time until everything was in (the page terminates a finished worker, which
  // the init script below keeps from happening, so its profile can still be read).
  let syncWorkerBusy: number | null = null;
  for (const [i, w] of dedicated.sessions.entries()) {
    const { profile: dp } = await w.send<{ profile: CpuProfile }>('Profiler.stop');
    const busy = busyMs(dp);
    syncWorkerBusy = (syncWorkerBusy ?? 0) + busy;
    if (profileDir) {
      writeFileSync(path.join(profileDir, `${label}-sync-worker-${i}.cpuprofile`), JSON.stringify(dp));
      console.log(
        `  dedicated sync worker, ${busy.toFixed(0)} ms busy, self time (${profileDir}/${label}-sync-worker-${i}.cpuprofile):`,
      );
      for (const line of heaviest(dp)) console.log(`    ${line}`);
    }
  }
  if (profileDir) {
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    writeFileSync(path.join(profileDir, `${label}-page.cpuprofile`), JSON.stringify(profile));
    console.log(`  page main thread, self time (profile in ${profileDir}/${label}-page.cpuprofile):`);
    for (const line of heaviest(profile)) console.log(`    ${line}`);
    const w = await Promise.race([
      workerWatch.worker,
      new Promise<null>((r) => setTimeout(() => r(null), 5000)),
    ]);
    if (w) {
      const { profile: wp } = await w.send<{ profile: CpuProfile }>('Profiler.stop');
      writeFileSync(path.join(profileDir, `${label}-worker.cpuprofile`), JSON.stringify(wp));
      console.log(`  service worker, self time (${profileDir}/${label}-worker.cpuprofile):`);
      for (const line of heaviest(wp)) console.log(`    ${line}`);
    }
  }
  const firstCard = await page.evaluate(
    () => (window as unknown as { __cardsAt?: number }).__cardsAt ?? null,
  );
  const tasks = await page.evaluate(
    () => (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks,
  );
  const during = tasks.filter((t) => allIn === null || t.start <= (allIn ?? 0));
  const estimate = await page.evaluate(async () => {
    const e = (await navigator.storage.estimate()) as StorageEstimate & {
      usageDetails?: { indexedDB?: number };
    };
    return { usage: e.usage ?? 0, idb: e.usageDetails?.indexedDB ?? null };
  });

  // Search over everything on the device, one keystroke at a time (100 ms apart, as typed), on the throttled page.
  let search: { products: number; build: number; times: number[]; keys: string[] } | null = null;
  if (allIn !== null) {
    if (profileDir) {
      await cdp.send('Profiler.start');
    }
    await page.evaluate(searchScript);
    search = await page.evaluate(
      (qs) =>
        (
          globalThis as unknown as {
            catalogueSyncBench: {
              searchKeystrokes(
                q: string[],
              ): Promise<{ products: number; build: number; times: number[]; keys: string[] }>;
            };
          }
        ).catalogueSyncBench.searchKeystrokes(qs),
      QUERIES,
    );
    if (profileDir) {
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
      writeFileSync(path.join(profileDir, `${label}-search.cpuprofile`), JSON.stringify(profile));
      console.log(
        `  search on the page (index and keystrokes), self time (${profileDir}/${label}-search.cpuprofile):`,
      );
      for (const line of heaviest(profile)) console.log(`    ${line}`);
    }
  }

  // A later delta sync: one product changes on the server; the worker that now controls the page syncs.
  let delta: { bytes: number; apply: number | null; total: number } | null = null;
  // A first visit registers the service worker only once the catalogue is in (web/pwa/start.ts); it then
  // installs (precache, a delta sync) and takes the page.
  const controlled = await page
    .waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 90_000 })
    .then(() => true)
    .catch(() => false);
  if (allIn !== null && controlled) {
    // Let the first visit's own follow-up syncs (install, activate) finish before the change.
    await page.waitForTimeout(3000);
    const token = await adminToken(server);
    const before = { ...workerFeed };
    await setPrice(server, token, 5, 4321);
    let feedTiming: { startTime: number; responseEnd: number } | null = null;
    const onFeed = async (req: import('playwright-core').Request) => {
      if (req.serviceWorker() && req.url().includes('/api/sync/catalogue')) feedTiming = req.timing();
    };
    context.on('requestfinished', onFeed);
    // A string: tsx compiles this file with esbuild's keepNames, whose __name() helper does not exist in the page.
    const { total, answeredAt } = (await page.evaluate(`new Promise((resolve) => {
      const t = performance.now();
      const answer = (e) => {
        if (e.data?.type !== 'CATALOGUE_SYNCED') return;
        navigator.serviceWorker.removeEventListener('message', answer);
        resolve({ total: performance.now() - t, answeredAt: Date.now() });
      };
      navigator.serviceWorker.addEventListener('message', answer);
      navigator.serviceWorker.controller?.postMessage({ type: 'SYNC_CATALOGUE' });
    })`)) as { total: number; answeredAt: number };
    await page.waitForTimeout(500);
    context.off('requestfinished', onFeed);
    // Applied: from the feed's last byte (the request's start plus its response end, both on this
    // machine's clock) to the worker's answer reaching the page. The round trip also holds the
    // worker's waking, its lock and the network.
    const timing = feedTiming as { startTime: number; responseEnd: number } | null;
    const apply = timing ? answeredAt - (timing.startTime + timing.responseEnd) : null;
    delta = {
      bytes: workerFeed.bytes - before.bytes,
      apply: apply === null ? null : Math.max(0, apply),
      total,
    };
  }
  await context.close();
  return {
    products: expected,
    firstCard,
    allIn,
    bytes: bytes + workerBytes + dedicated.bytes(),
    feedBytes: feedBytes + workerFeed.bytes + dedicated.feed.bytes - (delta?.bytes ?? 0),
    feedRequests: feedRequests + workerFeed.requests + dedicated.feed.requests - (delta ? 1 : 0),
    longTotal: during.reduce((n, t) => n + t.duration, 0),
    longMax: during.reduce((n, t) => Math.max(n, t.duration), 0),
    longCount: during.length,
    longOver200: during.filter((t) => t.duration > 200),
    storage: estimate.usage,
    idbStorage: estimate.idb,
    searchP95: search ? pct(search.times, 95) : null,
    searchMax: search ? Math.max(...search.times) : null,
    searchSlowest: search
      ? search.times
          .map((t, i) => ({ key: search?.keys[i] ?? '', ms: t }))
          .sort((a, b) => b.ms - a.ms)
          .slice(0, 3)
      : [],
    searchBuild: search?.build ?? null,
    deltaBytes: delta?.bytes ?? null,
    deltaApply: delta?.apply ?? null,
    deltaTotal: delta?.total ?? null,
    pageDeltaApply: null,
    workerThrottled: workerWatch.throttled(),
    syncWorkerBusy,
  };
}

function report(label: string, f: Figures, baseline: Figures | null): void {
  const vs = (x: number | null, b: number | null | undefined, fmt: (n: number | null) => string) =>
    baseline && b !== undefined ? `${fmt(x)} (demo ${fmt(b)})` : fmt(x);
  const ms = (n: number | null) => (n === null ? 'n/a' : `${n.toFixed(1)} ms`);
  const bytes = (n: number | null) => (n === null ? 'n/a' : kib(n));
  console.log(`  ${label}: ${f.products.toLocaleString('en')} products`);
  console.log(`    first product card on screen        ${vs(f.firstCard, baseline?.firstCard, s)}`);
  console.log(`    all products in IndexedDB           ${vs(f.allIn, baseline?.allIn, s)}`);
  console.log(
    `    bytes transferred                   ${vs(f.bytes, baseline?.bytes, bytes)}; the feed ${kib(f.feedBytes)} in ${f.feedRequests} requests`,
  );
  console.log(
    `    long tasks on the page until then   ${f.longCount} tasks, ${vs(f.longTotal, baseline?.longTotal, ms)} in total, longest ${vs(f.longMax, baseline?.longMax, ms)}`,
  );
  if (f.longOver200.length)
    console.log(
      `      over 200 ms (start s / ms; first card at ${s(f.firstCard)}): ${f.longOver200.map((t) => `${(t.start / 1000).toFixed(2)}/${t.duration.toFixed(0)}`).join(', ')}`,
    );
  console.log(
    `    storage used                        ${vs(f.storage, baseline?.storage, bytes)} (IndexedDB ${bytes(f.idbStorage)}, ${f.idbStorage === null ? 'n/a' : `${((f.idbStorage / f.products) | 0).toLocaleString('en')} B per product`})`,
  );
  console.log(
    `    search per keystroke                p95 ${vs(f.searchP95, baseline?.searchP95, ms)}, max ${ms(f.searchMax)}; index built in ${ms(f.searchBuild)}`,
  );
  if (f.searchSlowest.length)
    console.log(
      `      slowest: ${f.searchSlowest.map((k) => `"${k.key}" ${k.ms.toFixed(1)} ms`).join(', ')}`,
    );
  console.log(
    `    delta sync after one change         ${bytes(f.deltaBytes)} on the wire, applied in ${ms(f.deltaApply)} (round trip ${ms(f.deltaTotal)}) ${baseline ? `(demo ${bytes(baseline.deltaBytes)}, ${ms(baseline.deltaApply)})` : ''}`,
  );
  if (!f.workerThrottled)
    console.log('    (the service worker could not be CPU-throttled; its work ran at full speed)');
  if (f.syncWorkerBusy !== null && f.allIn !== null)
    console.log(
      `    dedicated sync worker (unthrottled)  ${ms(f.syncWorkerBusy)} of CPU; at ${CPU_SLOWDOWN}x all products in by about ${s(throttledAllIn(f))} (measured + ${CPU_SLOWDOWN - 1} x its CPU time)`,
    );
}

/**
 * All products in as a throttled phone would have them: the sync worker's CPU time counted
 * CPU_SLOWDOWN times. Pessimistic: it assumes none of that time overlapped a network wait.
 */
function throttledAllIn(f: Figures): number | null {
  if (f.allIn === null) return null;
  return f.allIn + (CPU_SLOWDOWN - 1) * (f.syncWorkerBusy ?? 0);
}

function goals(f: Figures, demo: Figures, onPage: Figures | null): void {
  const v = (ok: boolean) => (ok ? 'MET' : 'NOT MET');
  // Issue 47: 10,000 products on the device within 5 s (DESIGN.md's budget said 10); 50,000 within 40.
  const limit = f.products >= 50_000 ? 40_000 : 5_000;
  if (f.products >= 10_000) {
    const within = (t: number | null | undefined) => t !== null && t !== undefined && t <= limit;
    console.log(
      `    goal: all ${f.products.toLocaleString('en')} on the device <= ${limit / 1000} s: measured ${v(within(f.allIn))}; all of the sync at ${CPU_SLOWDOWN}x (on the page) ${onPage ? v(within(onPage.allIn)) : 'not run'}; worker at ${CPU_SLOWDOWN}x (estimate) ${v(within(throttledAllIn(f)))}`,
    );
  }
  console.log(
    `    goal: first card no later than 2.2 s and the demo's (+10%): ${v(f.firstCard !== null && demo.firstCard !== null && f.firstCard <= Math.max(2200, demo.firstCard * 1.1))}`,
  );
  console.log(
    `    goal: no long task over 100 ms while the sync runs (issue 47; it was 200): ${v(f.longMax <= 100)}`,
  );
  if (f.products >= 50_000)
    console.log(`    goal: search p95 per keystroke < 16 ms: ${v(f.searchP95 !== null && f.searchP95 < 16)}`);
  console.log(
    `    goal: delta after one change < 2 KiB and applied < 100 ms: ${v(f.deltaBytes !== null && f.deltaBytes < 2048 && f.deltaApply !== null && f.deltaApply < 100 && (onPage?.pageDeltaApply ?? 0) < 100)}${onPage ? ` (the worker's run at full speed, and on the page at ${CPU_SLOWDOWN}x)` : ''}`,
  );
  if (f.products >= 10_000 && f.idbStorage !== null)
    console.log(
      `    goal: storage per product no higher than before (11 MB at 10,000 = 1,100 B): ${v(f.idbStorage / f.products <= 1100)}`,
    );
}

export async function run(): Promise<void> {
  // A typo would otherwise reach Chromium as NaN and the bench would print figures for no known phone.
  if (!(CPU_SLOWDOWN >= 1))
    throw new Error(
      `CATALOGUE_SYNC_CPU_SLOWDOWN must be a number of at least 1 (1 is no slowdown), not "${process.env.CATALOGUE_SYNC_CPU_SLOWDOWN}"`,
    );
  const sizes = (process.env.CATALOGUE_SYNC_SIZES ?? '10000,50000')
    .split(',')
    .map(Number)
    .filter((n) => n > 0 && !(process.env.CATALOGUE_SYNC_QUICK && n >= 50_000));
  const profileDir = process.env.CATALOGUE_SYNC_PROFILE ?? null;
  const work = tempDir('sync-bench');
  const [webDir, searchScript] = await Promise.all([buildWeb(path.join(work, 'web')), bundlePage()]);
  const browser = await launchChromium();
  console.log(`machine load average (1 min): ${loadavg()[0]?.toFixed(2)}`);
  console.log(
    `first visit on a phone: ${CPU_SLOWDOWN}x CPU slowdown (page and worker), 1.6 Mbps down, 750 kbps up, 150 ms RTT, cold cache`,
  );
  // The same slowdown is a different phone on a different machine, and on a shared one from one
  // minute to the next: these say which phone each shop's visit met.
  const host = await benchmarkIndex(browser, 1);
  const calibrated = lighthouseSlowdown(host);
  console.log(
    `BenchmarkIndex (Lighthouse's) of this machine: ${host.toFixed(0)}; Lighthouse's calibration would slow it ${calibrated === null ? 'not at all (slower than its reference phone)' : `${calibrated.toFixed(1)}x`}`,
  );
  let demo: Figures | null = null;
  try {
    for (const size of [0, ...sizes]) {
      const data = await seededData(size);
      const server = await startServer({ webDir, dataDir: data.dir });
      try {
        const label = size === 0 ? 'demo' : String(data.products);
        console.log(
          `\n  the phone's BenchmarkIndex just before this shop (this machine at ${CPU_SLOWDOWN}x): ${(await benchmarkIndex(browser, CPU_SLOWDOWN)).toFixed(0)}`,
        );
        const f = await firstVisit(browser, server, data.products, searchScript, profileDir, label);
        report(size === 0 ? 'baseline, the demo shop' : 'synthetic shop', f, demo);
        let onPage: Figures | null = null;
        if (size > 0) {
          // The same first visit (a new context: cold) with the whole sync on the throttled page.
          onPage = await firstVisit(browser, server, data.products, searchScript, profileDir, label, true);
          console.log(
            `    all products in, the whole sync at ${CPU_SLOWDOWN}x on the page (no Worker)  ${s(onPage.allIn)}`,
          );
          console.log(
            `    a delta after one change applied on the page at ${CPU_SLOWDOWN}x  ${onPage.pageDeltaApply === null ? 'n/a' : `${onPage.pageDeltaApply.toFixed(1)} ms`}`,
          );
        }
        if (demo) goals(f, demo, onPage);
        demo ??= f;
      } finally {
        await server.stop();
        await rm(data.dir, { recursive: true, force: true });
      }
    }
  } finally {
    await browser.close();
    await rm(work, { recursive: true, force: true });
  }
}
