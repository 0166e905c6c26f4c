import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../api/app.js';
import { loadConfig } from '../../api/config.js';
import { openDatabase } from '../../api/db/database.js';
import { migrateToLatest } from '../../api/db/migrate.js';
import { FolderMediaStore, mediaDirOf } from '../../api/images/media-store.js';
import { seedDemoCatalogue } from '../../api/seed/demo.js';
import { seedSyntheticProducts } from '../../api/seed/synthetic.js';
import { freePort } from '../support/e2e.js';

/**
 * `npm run bench -- hosts`: what a flood of distinct Host headers on `/sitemap.xml` costs everyone
 * else, at 50,000 products, without PUBLIC_URL (the default). `/api/health` is timed on its own
 * kept-alive connection with no flood (the baseline, in the same run), then while one and four
 * anonymous clients ask for the sitemap in a loop, each request naming a Host never sent before.
 * The sitemap is made once per catalogue version (api/pages/README.md), so the builds during a
 * flood should be 0 and the health check's times near the baseline. SQLite in a file, the
 * production logger's level (every request logged, to a counting stream), as `npm start`.
 */
const PRODUCTS = 50_000;
const SAMPLES = Number(process.env.HOSTS_BENCH_REQUESTS ?? 400);

interface Timed {
  ms: number;
  status: number;
}

function timeOne(port: number, agent: Agent, pathname: string, host?: string): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        agent,
        headers: { 'accept-encoding': 'br, gzip', ...(host ? { host } : {}) },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, status: res.statusCode ?? 0 }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

async function healthTimes(port: number): Promise<{ p50: number; p95: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const r = await timeOne(port, agent, '/api/health');
      if (r.status !== 200) throw new Error(`/api/health answered ${r.status}`);
      times.push(r.ms);
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p95: percentile(times, 95) };
  } finally {
    agent.destroy();
  }
}

/** `clients` anonymous clients, each on its own connection, each request with a Host never sent before. */
function flood(port: number, clients: number): { stop(): Promise<{ requests: number; p50: number }> } {
  let running = true;
  let sent = 0;
  const times: number[] = [];
  const loops = Array.from({ length: clients }, async (_, c) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      while (running) {
        const r = await timeOne(port, agent, '/sitemap.xml', `flood-${c}-${sent++}.example`);
        if (r.status !== 200) throw new Error(`/sitemap.xml answered ${r.status}`);
        times.push(r.ms);
      }
    } finally {
      agent.destroy();
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      times.sort((a, b) => a - b);
      return { requests: times.length, p50: percentile(times, 50) };
    },
  };
}

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-hosts-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    SEED_DEMO: 'false',
    WEB_DIR: path.join(dataDir, 'no-web'),
    HOST: '127.0.0.1',
  });
  const db = openDatabase({ databaseUrl: null, sqliteFile: path.join(dataDir, 'shop.db') });
  await migrateToLatest(db.kysely);
  const demo = await seedDemoCatalogue(db.kysely, 'sqlite', new FolderMediaStore(mediaDirOf(dataDir)));
  await seedSyntheticProducts(db.kysely, 'sqlite', PRODUCTS - demo.products);

  let builds = 0;
  const app = await buildApp({
    config,
    db,
    closeDbWithApp: true,
    logger: {
      level: 'info',
      stream: {
        write(line: string) {
          if (line.includes('"msg":"sitemap built"')) builds += 1;
        },
      },
    },
  });
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });

  try {
    const first = await timeOne(port, new Agent(), '/sitemap.xml', 'first.example');
    console.log(
      `${PRODUCTS} products: the sitemap's first build and answer ${first.ms.toFixed(0)} ms (builds so far: ${builds})`,
    );
    await healthTimes(port); // warm-up
    const baseline = await healthTimes(port);
    console.log(
      `/api/health, no flood:          p50 ${baseline.p50.toFixed(2)} ms, p95 ${baseline.p95.toFixed(2)} ms (${SAMPLES} requests)`,
    );
    for (const clients of [1, 4]) {
      const before = builds;
      const running = flood(port, clients);
      const during = await healthTimes(port);
      const f = await running.stop();
      console.log(
        `/api/health, ${clients} flood client${clients === 1 ? ': ' : 's:'}      p50 ${during.p50.toFixed(2)} ms, p95 ${during.p95.toFixed(2)} ms; ` +
          `meanwhile ${f.requests} sitemap requests with distinct Hosts (p50 ${f.p50.toFixed(2)} ms), ${builds - before} sitemap builds`,
      );
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
