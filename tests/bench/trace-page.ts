import { readFileSync } from 'node:fs';
import path from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import type { Browser, CDPSession, Page } from 'playwright-core';

/**
 * The storefront bench's trace part (`STOREFRONT_BENCH_PARTS=trace`): a first visit to a page on
 * Lighthouse's phone (4x CPU slowdown, its slow 4G as DevTools applies it), with a performance trace
 * and a JavaScript CPU profile of the page, and each long task (over 50 ms on the main thread)
 * named: when it started, how long it ran, the trace events it is made of (parsing HTML, style,
 * layout, a timer, a fetch's answer, IndexedDB's callback...) and the source modules whose code ran
 * most in it, mapped through the build's source maps (`web/...`, `sw/...`, `react-dom`, `dexie`).
 * What Lighthouse's own report cannot say: it names a long task by its script's URL only.
 *
 * To read a whole start-up rather than its worst moments: `TRACE_MIN_MS=8` lists every task over
 * 8 ms (counted as "long" then), `TRACE_BY_TIME=1` in the order they ran, `TRACE_SHOWN=100` shows
 * up to 100 of them, and `TRACE_DEBUG=1` prints the events inside any task over 120 ms.
 */
const CPU_SLOWDOWN = 4;
/** Lighthouse's `devtools` throttling of its mobile preset (slow 4G: 562.5 ms RTT, 1.4745 Mbps down). */
const NETWORK = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1474.56 * 1024) / 8,
  uploadThroughput: (675 * 1024) / 8,
};
const LONG_TASK_MS = Number(process.env.TRACE_MIN_MS ?? 50);

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface LongTask {
  start: number;
  ms: number;
  events: string;
  code: string;
  /** The last response to arrive before the task, and how many elements its style recalculations touched. */
  after: string;
  styled: number;
}

export interface PageTrace {
  fcp: number | null;
  lcp: number | null;
  tasks: LongTask[];
  /** Main-thread time in long tasks over the first 10 s, and in all tasks. */
  longTotal: number;
  busyTotal: number;
}

/** Maps a position in a built file to its source module, read once per file from `<file>.map`. */
function sourceNamer(webDir: string): (url: string, line: number, column: number) => string {
  const maps = new Map<string, TraceMap | null>();
  return (url, line, column) => {
    let pathname: string;
    try {
      pathname = new URL(url).pathname;
    } catch {
      return url || '(native)';
    }
    if (!pathname.startsWith('/assets/')) return pathname;
    if (!maps.has(pathname)) {
      try {
        maps.set(pathname, new TraceMap(readFileSync(path.join(webDir, `${pathname}.map`), 'utf8')));
      } catch {
        maps.set(pathname, null);
      }
    }
    const map = maps.get(pathname);
    // A frame with no position (-1: code the worker's cache answered, compiled before the trace began).
    const source = map && line >= 0 ? originalPositionFor(map, { line: line + 1, column }).source : null;
    if (!source) return pathname;
    const nm = source.lastIndexOf('node_modules/');
    if (nm >= 0) {
      const rest = source.slice(nm + 'node_modules/'.length).split('/');
      return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? source);
    }
    const at = source.search(/(web|sw|domain)\//);
    return at >= 0 ? source.slice(at) : source;
  };
}

async function collectTrace(cdp: CDPSession): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => {
    events.push(...(e.value as unknown as TraceEvent[]));
  });
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await done;
  return events;
}

/** One first visit to `url`, traced; the figures are in the throttled page's milliseconds. */
export async function tracePage(
  browser: Browser,
  url: string,
  webDir: string,
  /** Runs first in the page's context (a shopper signed in, a cart): the visit traced is then a repeat one. */
  prepare?: (page: Page) => Promise<void>,
): Promise<PageTrace> {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  try {
    if (prepare) {
      const first = await context.newPage();
      await prepare(first);
      await first.close();
    }
    const page = await context.newPage();
    // A same-origin page first, with no scripts or styles: the visit below stays in its renderer
    // process, which the profiler is attached to (a cross-site navigation would start another).
    await page.goto(new URL('/robots.txt', url).href);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
    await cdp.send('Tracing.start', {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'toplevel',
        'blink.user_timing',
        'loading',
        'v8.execute',
      ].join(','),
      transferMode: 'ReportEvents',
    });
    await cdp.send('Profiler.start');
    await page.goto(url, { waitUntil: 'load' });
    // The first screen's work goes on after load (the catalogue, React's slices, idle work).
    await page.waitForTimeout(8_000);
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    const events = await collectTrace(cdp);
    return summarise(events, profile, sourceNamer(webDir), url);
  } finally {
    await context.close();
  }
}

function summarise(
  events: TraceEvent[],
  profile: CpuProfile,
  name: (url: string, line: number, column: number) => string,
  url: string,
): PageTrace {
  // The visit's own navigation: its document's URL (a page also starts documents with none, about:blank ones).
  const navStart = events.find(
    (e) =>
      e.name === 'navigationStart' &&
      (e.args?.data as { documentLoaderURL?: string })?.documentLoaderURL === url,
  );
  if (!navStart) throw new Error('the trace has no navigation of the page');
  const origin = navStart.ts;
  const onMain = events.filter((e) => e.pid === navStart.pid && e.tid === navStart.tid && e.ts >= origin);
  const navigationId = (navStart.args?.data as { navigationId?: string } | undefined)?.navigationId;
  const mark = (n: string) => {
    const e = onMain
      .filter(
        (x) => x.name === n && (x.args?.data as { navigationId?: string })?.navigationId === navigationId,
      )
      .at(-1);
    return e ? (e.ts - origin) / 1000 : null;
  };
  // The outermost tasks only (a task's event can hold another's).
  const candidates = onMain.filter(
    (e) =>
      e.ph === 'X' &&
      e.dur !== undefined &&
      (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask'),
  );
  const tasks = candidates.filter(
    (e) =>
      !candidates.some(
        (o) =>
          o !== e &&
          o.ts <= e.ts &&
          o.ts + (o.dur ?? 0) >= e.ts + (e.dur ?? 0) &&
          (o.dur ?? 0) > (e.dur ?? 0),
      ),
  );
  const busyTotal = tasks.reduce((s, t) => s + (t.dur ?? 0) / 1000, 0);

  // Each profile sample's time and the module of its innermost frame of our code or a library.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  let t = profile.startTime;
  const samples = profile.samples.map((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    const frame = byId.get(id)?.callFrame;
    const label = !frame
      ? '(unknown)'
      : frame.url
        ? name(frame.url, frame.lineNumber, frame.columnNumber)
        : frame.functionName
          ? `(${frame.functionName})`
          : '(native)';
    return { ts: t, label };
  });

  const long = tasks.filter((e) => (e.dur ?? 0) / 1000 > LONG_TASK_MS);
  // Which response a task followed (a lazy screen's code, a stylesheet, the catalogue's page).
  const urls = new Map<string, string>();
  for (const e of events) {
    const data = e.args?.data as { requestId?: string; url?: string } | undefined;
    if (e.name === 'ResourceSendRequest' && data?.requestId && data.url) urls.set(data.requestId, data.url);
  }
  const finishes = events
    .filter((e) => e.name === 'ResourceFinish')
    .map((e) => ({
      ts: e.ts,
      url: urls.get(String((e.args?.data as { requestId?: string })?.requestId)) ?? '?',
    }))
    .sort((a, b) => a.ts - b.ts);
  const named: LongTask[] = long.map((task) => {
    const end = task.ts + (task.dur ?? 0);
    // The task's direct pieces by total time: what kind of work it was.
    const inside = onMain.filter(
      (e) =>
        e !== task && e.ph === 'X' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && (e.dur ?? 0) > 1000,
    );
    const kinds = new Map<string, number>();
    for (const e of inside) {
      if (
        ['RunTask', 'ThreadControllerImpl::RunTask', 'RunMicrotasks', 'v8.run', 'V8.RunMicrotasks'].includes(
          e.name,
        )
      )
        continue;
      const script = (e.args?.data as { url?: string } | undefined)?.url;
      const scripted = ['FunctionCall', 'EvaluateScript', 'v8.compileModule', 'v8.evaluateModule'].includes(
        e.name,
      );
      const label =
        scripted && script
          ? `${e.name} ${new URL(script).pathname.replace(/-[\w-]{8}\.js$/, '.js')}`
          : e.name;
      kinds.set(label, Math.max(kinds.get(label) ?? 0, (e.dur ?? 0) / 1000));
    }
    if (process.env.TRACE_DEBUG && (task.dur ?? 0) > 120_000)
      for (const e of inside)
        console.log(
          `      ${' '.repeat(Math.min(20, Math.round((e.ts - task.ts) / 5000)))}${e.name} ${((e.dur ?? 0) / 1000).toFixed(1)} ${JSON.stringify(e.args ?? {}).slice(0, 160)}`,
        );
    const code = new Map<string, number>();
    let count = 0;
    for (const s of samples) {
      if (s.ts < task.ts || s.ts > end) continue;
      count += 1;
      code.set(s.label, (code.get(s.label) ?? 0) + 1);
    }
    const top = (m: Map<string, number>, n: number, fmt: (k: string, v: number) => string) =>
      [...m.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, v]) => fmt(k, v))
        .join(', ');
    const before = finishes.filter((f) => f.ts <= task.ts).at(-1);
    let after = '(nothing yet)';
    if (before) {
      try {
        const u = new URL(before.url);
        after = `${u.pathname.replace(/-[\w-]{8}\.(js|css)$/, '.$1')}${u.search}`.slice(0, 60);
      } catch {
        after = before.url.slice(0, 60);
      }
    }
    const styled = inside
      .filter((e) => e.name === 'UpdateLayoutTree')
      .reduce((n, e) => n + Number((e.args as { elementCount?: number } | undefined)?.elementCount ?? 0), 0);
    return {
      after,
      styled,
      start: (task.ts - origin) / 1000,
      ms: (task.dur ?? 0) / 1000,
      events: top(kinds, 4, (k, v) => `${k} ${v.toFixed(0)}`),
      code: count ? top(code, 4, (k, v) => `${k} ${Math.round((v / count) * 100)}%`) : '(no samples)',
    };
  });
  return {
    fcp: mark('firstContentfulPaint'),
    lcp: mark('largestContentfulPaint::Candidate'),
    tasks: process.env.TRACE_BY_TIME
      ? named.sort((a, b) => a.start - b.start)
      : named.sort((a, b) => b.ms - a.ms),
    longTotal: named.reduce((s, x) => s + x.ms, 0),
    busyTotal,
  };
}

export function printTrace(label: string, r: PageTrace, shown = Number(process.env.TRACE_SHOWN ?? 6)): void {
  const ms = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(0)} ms`);
  console.log(
    `  ${label}: FCP ${ms(r.fcp)}, last LCP candidate ${ms(r.lcp)}, main thread busy ${r.busyTotal.toFixed(0)} ms, ${r.tasks.length} long tasks (${r.longTotal.toFixed(0)} ms)`,
  );
  for (const t of r.tasks.slice(0, shown)) {
    console.log(
      `    ${t.ms.toFixed(0).padStart(4)} ms at ${t.start.toFixed(0).padStart(5)} ms  [${t.events}]`,
    );
    console.log(`                          code: ${t.code}`);
    console.log(
      `                          after ${t.after}${t.styled ? `; style recalculated for ${t.styled} elements` : ''}`,
    );
  }
}
