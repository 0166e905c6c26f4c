/**
 * A small round-robin reverse proxy, standing in for the load balancer in front of several shop
 * processes (tests/e2e/multi-process.test.ts, the orders bench). It does what a real one does on a
 * stop: a 503 from a draining process, or a refused connection, goes to the next process. A request
 * whose connection broke after it was sent is retried only when that is safe: a GET or HEAD, or one
 * carrying an `Idempotency-Key` (the shop places such an order once, whichever process answers).
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** Which backend answered each request, by index, in order. */
  answeredBy: number[];
  /** Requests retried on another backend. */
  retries: number;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
]);

export async function startProxy(backends: string[]): Promise<RoundRobinProxy> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const state: RoundRobinProxy = { url: '', answeredBy: [], retries: 0, close: async () => {} };

  const forward = (target: string, req: http.IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
      headers['x-forwarded-for'] = req.socket.remoteAddress ?? '127.0.0.1';
      headers['content-length'] = String(body.length);
      const out = http.request(`${target}${req.url}`, { method: req.method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      });
      out.on('error', reject);
      out.end(body);
    });

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const retrySafe =
      req.method === 'GET' || req.method === 'HEAD' || Boolean(req.headers['idempotency-key']);
    const first = next++ % backends.length;
    // Twice round the backends, with a short pause between rounds (a process may be starting or stopping).
    for (let attempt = 0; attempt < backends.length * 2; attempt++) {
      const index = (first + attempt) % backends.length;
      if (attempt === backends.length) await new Promise((r) => setTimeout(r, 200));
      try {
        const answer = await forward(backends[index] as string, req, body);
        if (answer.status === 503 && attempt < backends.length * 2 - 1) {
          state.retries++;
          continue;
        }
        state.answeredBy.push(index);
        for (const [k, v] of Object.entries(answer.headers)) {
          if (v !== undefined && !HOP_BY_HOP.has(k)) res.setHeader(k, v);
        }
        res.writeHead(answer.status).end(answer.body);
        return;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // Refused: nothing reached that process. Reset or hung up: retried only if it is safe.
        if (code === 'ECONNREFUSED' || retrySafe) {
          state.retries++;
          continue;
        }
        res.writeHead(502).end(`proxy: ${String(err)}`);
        return;
      }
    }
    res.writeHead(502).end('proxy: no backend answered');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
