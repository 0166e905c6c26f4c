/**
 * `npm run dev`: one command, one port (PORT, default 3000).
 *
 * Vite's dev server owns the port: it serves web/ with hot reload and proxies
 * `/api` and `/media` to the API, which runs on a free loopback port under
 * `tsx watch` (restarted on every change to api/ or domain/). Vite in front
 * rather than Fastify mounting Vite's middleware: the API restarts on every
 * server change, and a Vite inside it would restart too, dropping the
 * browser's hot-reload connection and its module graph each time; in front, a
 * change to a screen never restarts the API, a change to the API never reloads
 * the page, and during the restart the proxy answers 502 for a moment.
 *
 * The service worker is off in dev (vite.config.ts devOptions): to try the
 * offline shop, `npm start` (the README's "Development").
 */
import { spawn } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { createServer, type Plugin } from 'vite';
import { cspDirectives } from '../api/plugins/security-headers.js';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '0.0.0.0';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** The Content-Security-Policy of the dev server's pages, from the production one (api/plugins/security-headers.ts). */
export function devCspHeader(razorpay: boolean): string {
  const directives: Record<string, string[]> = cspDirectives({ styles: [], scripts: [] }, razorpay);
  // Development only, for what Vite needs: its HTML carries inline module scripts (the React Refresh preamble,
  // the shell's start-up script) whose text Vite writes per request, and it injects every stylesheet as a
  // <style> element from script (hot reload swaps them). Production allows only the built shell's two inline
  // elements by hash. The hot-reload WebSocket is same-origin ('self'); ws:/wss: for browsers whose 'self'
  // does not cover WebSocket schemes.
  directives['script-src'] = [...(directives['script-src'] ?? []), "'unsafe-inline'"];
  directives['style-src'] = ["'self'", "'unsafe-inline'"];
  directives['connect-src'] = [...(directives['connect-src'] ?? []), 'ws:', 'wss:'];
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

function devCsp(): Plugin {
  const header = devCspHeader(Boolean(process.env.RAZORPAY_KEY_ID && process.env.RAZORPAY_KEY_SECRET));
  return {
    name: 'storefront-dev-csp',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((_req, res, next) => {
        res.setHeader('Content-Security-Policy', header);
        next();
      });
    },
  };
}

async function main(): Promise<void> {
  const apiPort = await freePort();
  const apiOrigin = `http://127.0.0.1:${apiPort}`;
  const watcher = spawn(
    path.join('node_modules', '.bin', 'tsx'),
    ['watch', '--clear-screen=false', 'api/server.ts'],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        NODE_ENV: process.env.NODE_ENV ?? 'development',
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        // Vite's proxy passes the browser's Host (this port, not the API's): the API writes its
        // absolute URLs (page heads, mail links) from it only when listed.
        ALLOWED_HOSTS: process.env.ALLOWED_HOSTS ?? `localhost:${port},127.0.0.1:${port}`,
      },
    },
  );

  const vite = await createServer({
    configFile: 'vite.config.ts',
    plugins: [devCsp()],
    server: {
      port,
      host,
      strictPort: true,
      proxy: { '/api': apiOrigin, '/media': apiOrigin },
    },
  });
  await vite.listen();
  vite.printUrls();
  console.log(`API (tsx watch) on ${apiOrigin}, behind /api and /media`);

  let closing = false;
  const close = (code: number) => {
    if (closing) return;
    closing = true;
    watcher.kill('SIGTERM');
    vite.close().finally(() => process.exit(code));
  };
  process.once('SIGINT', () => close(0));
  process.once('SIGTERM', () => close(0));
  watcher.once('exit', (code) => {
    console.error(`The API watcher stopped (exit code ${code}).`);
    close(code ?? 1);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
