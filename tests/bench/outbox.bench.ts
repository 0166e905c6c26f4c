import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import {
  buildWeb,
  feedSnapshot,
  launchChromium,
  type RunningServer,
  startServer,
  tempDir,
  waitForController,
} from '../support/e2e.js';
import {
  type ChaosProxy,
  ordersOf,
  outboxRows,
  putRows,
  queuedRow,
  registerShopper,
  startChaosProxy,
  waitForStore,
  writeSession,
} from '../support/shopper.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';

/**
 * `npm run bench -- outbox`: the chaos of tests/e2e/outbox-chaos.test.ts at
 * N = 200 orders and 20 offline/online flaps (plus 3 s of connection resets,
 * 3 lost answers of committed orders and a server restart), in real Chromium
 * against the real server. Figures: orders placed, duplicates, lost (goal
 * 200/0/0) and the time from the moment the network is back for good until
 * the last order is placed, against the time the same 200 orders take sent
 * online one by one from the same page in the same run.
 */
const N = Number(process.env.OUTBOX_BENCH_N ?? 200);
const FLAPS = 20;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function run(): Promise<void> {
  let server: RunningServer | null = null;
  let proxy: ChaosProxy | null = null;
  let smtp: TestSmtp | null = null;
  const browser = await launchChromium();
  try {
    smtp = await startSmtp();
    const webDir = await buildWeb(tempDir('outbox-bench'));
    // Throughput of the outbox, not of place-order's rate limit.
    server = await startServer({
      webDir,
      env: { SMTP_URL: smtp.url, PLACE_ORDER_LIMITS: '1000000/1000000' },
    });
    proxy = await startChaosProxy(server);
    const stamp = Date.now();
    const baselineShopper = await registerShopper(server, smtp, `bench-online-${stamp}@example.test`);
    const chaosShopper = await registerShopper(server, smtp, `bench-chaos-${stamp}@example.test`);
    // A photo cake is refused without its photo (issue 26): plain products only.
    const catalogue = (await feedSnapshot(server)).products.filter((p) => p.price > 0 && !p.photoCake);
    const product = (i: number) => catalogue[i % catalogue.length] as (typeof catalogue)[number];

    const context = await browser.newContext({ baseURL: proxy.url, viewport: { width: 412, height: 823 } });
    const page = await context.newPage();
    await page.goto('/home');
    await waitForController(page);
    await waitForStore(page);

    // Baseline: the same orders sent online one by one from the page, each waiting for its answer.
    const baselineRows = Array.from({ length: N }, (_, i) =>
      queuedRow(baselineShopper, product(i), randomUUID(), i),
    );
    const baselineMs = await page.evaluate(
      async ({ rows, token }) => {
        const started = performance.now();
        for (const row of rows) {
          const res = await fetch('/api/place-order', {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${token}`,
              'idempotency-key': row.key,
            },
            body: JSON.stringify(row.request),
          });
          if (!res.ok) throw new Error(`baseline order ${res.status}`);
        }
        return performance.now() - started;
      },
      { rows: baselineRows, token: baselineShopper.token },
    );
    const baselinePlaced = (await ordersOf(server, baselineShopper.email)).size;

    // The chaos: N orders wait on the phone, the network flaps, resets, loses answers, the shop restarts.
    await writeSession(page, chaosShopper);
    await context.setOffline(true);
    const start = Date.now();
    const rows = Array.from({ length: N }, (_, i) =>
      queuedRow(chaosShopper, product(i), randomUUID(), start + i),
    );
    await putRows(page, 'outbox', rows);
    // An app start with orders waiting (offline: the worker serves the shell) starts the page's sender.
    await page.reload();
    await waitForStore(page);
    proxy.loseAnswers = 3;
    const chaosStarted = Date.now();
    for (let i = 0; i < FLAPS; i++) {
      await context.setOffline(false);
      await sleep(250);
      await context.setOffline(true);
      await sleep(150);
    }
    proxy.resetAll = true;
    await context.setOffline(false);
    await sleep(3_000);
    proxy.resetAll = false;
    await server.restart();
    const backAt = Date.now();
    const sentDuringChaos = await countSent(
      page,
      rows.map((r) => r.key),
    );
    await waitAllSent(
      page,
      rows.map((r) => r.key),
      15 * 60_000,
    );
    const orders = await ordersOf(server, chaosShopper.email);
    const final = (await outboxRows(page)).filter((r) => rows.some((q) => q.key === r.key));
    // The row's own clock: when the sender stored the answer of the last order (not when the poll saw it).
    const finished = Math.max(...final.filter((r) => r.state === 'sent').map((r) => r.updatedAt));
    const ids = new Set(final.map((r) => r.placed?.orderID).filter((id): id is number => id !== undefined));
    const lost = N - [...ids].filter((id) => orders.has(id)).length;
    const duplicates = Math.max(0, orders.size - ids.size);

    console.log(
      `\noutbox: N = ${N} orders, ${FLAPS} flaps, 3 s of resets, ${proxy.lost} lost answers, 1 server restart`,
    );
    console.log(
      `  placed ${orders.size}, duplicates ${duplicates}, lost ${lost} (goal ${N}/0/0): ${orders.size === N && duplicates === 0 && lost === 0 ? 'MET' : 'NOT MET'}`,
    );
    console.log(
      `  sent while the network flapped and reset: ${sentDuringChaos} of ${N} (chaos lasted ${secs(backAt - chaosStarted)} incl. the restart)`,
    );
    const afterBack = final
      .filter((r) => r.state === 'sent' && r.updatedAt >= backAt)
      .map((r) => r.updatedAt)
      .sort((a, b) => a - b);
    const firstAfterBack = afterBack[0] ?? backAt;
    if (process.env.OUTBOX_BENCH_DEBUG)
      console.log(afterBack.map((t, i) => t - (afterBack[i - 1] ?? t)).join(' '));
    if (finished <= backAt) {
      // On a quick machine the queue drains in the short online windows of the flaps themselves.
      console.log(
        `  every order was placed before the network was back for good: the last ${secs(finished - chaosStarted)} after the chaos began (${secs(backAt - finished)} before its end)`,
      );
    } else {
      console.log(
        `  from the network back for good to the last order placed: ${secs(finished - backAt)} (the first got through after ${secs(firstAfterBack - backAt)}, then ${afterBack.length} orders in ${secs(finished - firstAfterBack)})`,
      );
    }
    console.log(
      `  baseline: the same ${N} orders sent online one by one: ${secs(baselineMs)} (${baselinePlaced} placed)`,
    );
    await context.close();
  } finally {
    await browser.close();
    await proxy?.close();
    await server?.stop();
    await smtp?.close();
  }
}

async function countSent(page: Page, keys: readonly string[]): Promise<number> {
  const rows = await outboxRows(page);
  const wanted = new Set(keys);
  return rows.filter((r) => wanted.has(r.key) && r.state === 'sent').length;
}

/** Polls the device until every order is sent, or the time is up (what is missing is then counted as lost). */
async function waitAllSent(page: Page, keys: readonly string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await countSent(page, keys)) < keys.length && Date.now() < deadline) await sleep(250);
}
