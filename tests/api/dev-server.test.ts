import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run dev` (scripts/dev.ts): one port, Vite's dev server in front (hot reload), the API behind it
 * through the proxy, development logs through pino-pretty.
 */

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('npm run dev', () => {
  let dev: ChildProcess;
  let origin = '';
  let output = '';
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dev-server-'));

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    // The script `npm run dev` runs, in its own process group so the API watcher stops with it.
    dev = spawn(path.join('node_modules', '.bin', 'tsx'), ['scripts/dev.ts'], {
      detached: true,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
      },
    });
    dev.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    dev.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    // Until the API answers through Vite's proxy (a 502 while it starts), or the script stops.
    for (;;) {
      if (dev.exitCode !== null) throw new Error(`npm run dev stopped:\n${output}`);
      const answer = await fetch(`${origin}/api/health`).catch(() => null);
      if (answer?.ok) break;
      await sleep(250);
    }
  }, 120_000);

  afterAll(async () => {
    if (dev?.pid && dev.exitCode === null) {
      const exited = new Promise((resolve) => dev.once('exit', resolve));
      process.kill(-dev.pid, 'SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves the page from Vite's dev server, with its hot-reload client", async () => {
    const answer = await fetch(`${origin}/products`);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toContain('/@vite/client');
    expect(html).toContain('/@react-refresh');
    // A development policy: the production one relaxed for Vite's inline scripts, styles and socket only.
    const csp = answer.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    const client = await fetch(`${origin}/@vite/client`);
    expect(client.status).toBe(200);
  });

  it('answers the API on the same port, through the proxy, with its strict headers', async () => {
    const answer = await fetch(`${origin}/api/health`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ isSuccess: true, data: { status: 'ok' } });
    expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(answer.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    const categories = await fetch(`${origin}/api/GetCategories`);
    expect(categories.headers.get('content-type')).toContain('application/json');
  });

  it('logs in readable lines (pino-pretty), not JSON', () => {
    expect(output).toMatch(/INFO: .*Server listening/);
    expect(output).not.toMatch(/^\{"level":30/m);
  });
});
