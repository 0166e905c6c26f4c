import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/**
 * What Node's HTTP parser refuses never reaches Fastify's routes or `inject`,
 * so these run against the app listening on a real port, with raw bytes on a
 * socket: an over-long URL and an over-long header (431, Node's 16 KiB header
 * limit) and bytes that are not HTTP (400) are answered in the envelope.
 */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('error', (err) => (answer ? resolve(answer) : reject(err)));
    socket.on('close', () => resolve(answer));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.write(request);
  });
}

function parse(answer: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

for (const dialect of DIALECTS) {
  describe(`requests the HTTP parser refuses, on ${dialect}`, () => {
    let t: TestApp;
    let port: number;
    beforeAll(async () => {
      t = await makeTestApp(dialect);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await t?.close();
    });

    it('answers an over-long URL with 431 in the envelope', async () => {
      const url = `/api/search?q=${'a'.repeat(20_000)}`;
      const res = parse(await raw(port, `GET ${url} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
      expect(res.status).toBe(431);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.body).toEqual({
        isSuccess: false,
        data: null,
        sys_message: 'The address or the headers of the request are too long.',
      });
    });

    it('answers an over-long header with 431 in the envelope', async () => {
      const res = parse(
        await raw(
          port,
          `GET /api/GetCategories HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
        ),
      );
      expect(res.status).toBe(431);
      expect(res.body).toEqual({
        isSuccess: false,
        data: null,
        sys_message: 'The address or the headers of the request are too long.',
      });
    });

    it('answers bytes that are not HTTP with 400 in the envelope', async () => {
      const res = parse(await raw(port, 'NOT HTTP AT ALL\r\n\r\n'));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        isSuccess: false,
        data: null,
        sys_message: 'The request could not be read.',
      });
    });

    it('still answers a good request on the same server', async () => {
      const res = parse(
        await raw(port, 'GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
      );
      expect(res.status).toBe(200);
    });
  });
}
