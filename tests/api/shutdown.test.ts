import http from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/e2e.js';

/**
 * The real `tsx api/server.ts` (SQLite in a temp folder, a free port) as a process manager runs it:
 * in production mode, without PUBLIC_URL, and stopped with SIGTERM while one client keeps an idle
 * connection open (a pooling proxy, Node's fetch) and another is half-way through sending a request.
 * The grace period is set to 60 s, far beyond this file's timeout: a process that waited for the
 * idle connection to go away by itself would fail the test by its timeout, not by a measured time.
 */
const GRACE_S = 60;

/** Resolves once `predicate` holds for the server's output so far (the process logs as it goes). */
async function logged(server: RunningServer, predicate: (output: string) => boolean): Promise<void> {
  while (!predicate(server.output())) await new Promise((r) => setTimeout(r, 50));
}

const logLines = (server: RunningServer) =>
  server
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; req?: { url?: string } });

describe('tsx api/server.ts in production, stopped with SIGTERM', { timeout: 25_000 }, () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      webDir: '/nonexistent-web-dir',
      env: {
        NODE_ENV: 'production',
        SEED_DEMO: 'false',
        TEST_PAYMENTS: 'false',
        PUBLIC_URL: '',
        ALLOWED_HOSTS: '',
        SHUTDOWN_GRACE: `${GRACE_S}s`,
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('warns at start that PUBLIC_URL is unset, naming the address absolute URLs fall back to', () => {
    const warning = logLines(server).find((l) => l.level === 40 && l.msg.startsWith('PUBLIC_URL is not set'));
    expect(warning?.msg, server.output()).toContain(`http://127.0.0.1:${server.port}`);
  });

  it('finishes the request in flight, closes the idle keep-alive connection and exits 0 at once', async () => {
    // Two pools, so the login does not take the idle connection: both keep their connections open.
    const agent = new http.Agent({ keepAlive: true });
    const loginAgent = new http.Agent({ keepAlive: true });
    const host = '127.0.0.1';
    try {
      // A connection that answered once and stays open, idle, in the client's pool.
      const idle = await new Promise<Socket>((resolve, reject) => {
        const req = http.get({ host, port: server.port, path: '/api/health', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(socket));
        });
        let socket: Socket;
        req.on('socket', (s) => {
          socket = s;
        });
        req.on('error', reject);
      });
      expect(idle.destroyed).toBe(false);
      const idleClosed = new Promise<void>((resolve) => idle.once('close', () => resolve()));

      // A login whose body is still on its way when the stop comes: begun, so it must be answered.
      const body = JSON.stringify({ email: server.adminEmail, password: server.adminPassword });
      const half = Math.floor(body.length / 2);
      const login = http.request({
        host,
        port: server.port,
        path: '/api/LoginCustomer',
        method: 'POST',
        agent: loginAgent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      const answered = new Promise<{ status: number; connection: string | undefined; body: string }>(
        (resolve, reject) => {
          login.on('response', (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => {
              text += c;
            });
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }),
            );
          });
          login.on('error', reject);
        },
      );
      login.write(body.slice(0, half));
      login.flushHeaders();
      // The server has read the request's head (and logged it) before it is told to stop.
      await logged(server, () =>
        logLines(server).some((l) => l.msg === 'incoming request' && l.req?.url === '/api/LoginCustomer'),
      );

      const exited = server.terminate();
      await logged(server, (out) => out.includes('SIGTERM: finishing the requests in flight'));
      login.end(body.slice(half));

      const answer = await answered;
      expect(answer.status, answer.body).toBe(200);
      expect(JSON.parse(answer.body).isSuccess).toBe(true);
      // Not to be kept alive: the client sends nothing more on it.
      expect(answer.connection).toBe('close');
      await idleClosed;
      expect(await exited, server.output()).toBe(0);
      const messages = logLines(server).map((l) => l.msg);
      expect(messages).toContain('closed');
      expect(messages.filter((m) => m.includes('grace period over'))).toEqual([]);
    } finally {
      agent.destroy();
      loginAgent.destroy();
    }
  });
});
