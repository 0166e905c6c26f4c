import { execFileSync } from 'node:child_process';
import { createECDH, createPublicKey, type ECDH, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
// http_ece is what web-push encrypts with; the double decrypts with it, as a browser's push stack would.
import ece from 'http_ece';

/**
 * A local stand-in for a browser vendor's push service (the one part of Web Push that cannot run
 * here): an HTTPS server that takes pushes as RFC 8030 describes, checks the VAPID authorization
 * of RFC 8292 (a JWT signed with ES256 by the key in `k`, for this origin, not expired), and
 * decrypts the RFC 8291 `aes128gcm` payload with the private key of the device it made the
 * subscription for. A test reads what each device received, and can make a device answer as a
 * real service does when the subscription is gone (410), or fail (500), or drop the connection,
 * or take the push and never answer (`silent`: held until the test lets go, `releaseSilent`).
 * Its certificate names 127.0.0.1 and localhost. The app reaches it through the test seam
 * (`appSettings`: TEST_PUSH_SERVICE and the certificate to trust).
 */
export type DeviceBehaviour = 'accept' | 'gone' | 'fail' | 'drop' | 'silent';

export interface Received {
  device: string;
  payload: unknown;
  ttl: number;
  urgency: string | undefined;
  vapidSubject: string;
}

export interface Device {
  id: string;
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  behave(b: DeviceBehaviour): void;
}

export interface PushServiceDouble {
  origin: string;
  port: number;
  /** The double's certificate, for the app to trust. */
  ca: Buffer;
  /** What an app needs to push here: the seam setting (config) and the certificate (push options). */
  appSettings(): { config: { testPushService: { host: string; port: number } }; push: { ca: Buffer } };
  received: Received[];
  /** TCP connections the double has accepted, ever. */
  connections(): number;
  /** Pushes a silent device holds now, unanswered. */
  silentHeld(): number;
  /** Silent devices' pushes that have ended (the sender gave up on them) before the test let go. */
  silentEnded(): number;
  /** Drops every held push (the test turns the devices to another behaviour first). */
  releaseSilent(): void;
  /** Requests refused for a bad VAPID header or body, with the reason. */
  refused: string[];
  device(): Device;
  close(): Promise<void>;
}

const b64url = (b: Buffer) => b.toString('base64url');

export async function startPushService(): Promise<PushServiceDouble> {
  const dir = mkdtempSync(path.join(tmpdir(), 'push-service-'));
  const [keyFile, certFile] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-days',
      '1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  const key = readFileSync(keyFile);
  const cert = readFileSync(certFile);
  rmSync(dir, { recursive: true, force: true });

  const devices = new Map<string, { ecdh: ECDH; auth: Buffer; behaviour: DeviceBehaviour }>();
  const state = { received: [] as Received[], refused: [] as string[], origin: '' };
  /** Held pushes of silent devices; one that closes before the test lets go has ended (the sender gave up). */
  const silent = { held: new Set<Socket>(), ended: 0 };
  let connections = 0;

  const checkVapid = (header: string | undefined): string => {
    const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? '');
    if (!m) throw new Error(`no VAPID authorization: ${header}`);
    const [jwt = '', k = ''] = [m[1], m[2]];
    const [head = '', body = '', sig = ''] = jwt.split('.');
    const raw = Buffer.from(k, 'base64url');
    if (raw.length !== 65) throw new Error('k is not a P-256 public key');
    const publicKey = createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33)) },
      format: 'jwk',
    });
    const good = verify(
      'sha256',
      Buffer.from(`${head}.${body}`),
      { key: publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(sig, 'base64url'),
    );
    if (!good) throw new Error('the VAPID signature does not verify');
    const header_ = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg: string };
    if (header_.alg !== 'ES256') throw new Error(`VAPID alg ${header_.alg}`);
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as {
      aud: string;
      exp: number;
      sub: string;
    };
    if (claims.aud !== state.origin) throw new Error(`VAPID aud ${claims.aud} is not ${state.origin}`);
    const now = Date.now() / 1000;
    if (!(claims.exp > now && claims.exp <= now + 24 * 3600 + 60)) throw new Error('VAPID exp out of range');
    if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error(`VAPID sub ${claims.sub}`);
    return claims.sub;
  };

  const server = https.createServer({ key, cert }, async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? '';
    const device = devices.get(id);
    if (req.method !== 'POST' || !device) {
      res.writeHead(404).end();
      return;
    }
    if (device.behaviour === 'drop') {
      req.socket.destroy();
      return;
    }
    if (device.behaviour === 'silent') {
      const socket = req.socket;
      silent.held.add(socket);
      socket.once('close', () => {
        if (silent.held.delete(socket)) silent.ended++;
      });
      return;
    }
    if (device.behaviour === 'gone') {
      res.writeHead(410).end();
      return;
    }
    if (device.behaviour === 'fail') {
      res.writeHead(500).end();
      return;
    }
    try {
      const subject = checkVapid(req.headers.authorization);
      if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
      const ttl = Number(req.headers.ttl);
      if (!Number.isInteger(ttl)) throw new Error('no TTL');
      const plain = ece.decrypt(Buffer.concat(chunks), {
        version: 'aes128gcm',
        privateKey: device.ecdh,
        authSecret: b64url(device.auth),
      });
      state.received.push({
        device: id,
        payload: JSON.parse(plain.toString('utf8')),
        ttl,
        urgency: req.headers.urgency as string | undefined,
        vapidSubject: subject,
      });
      res.writeHead(201, { location: `${state.origin}/message/${randomBytes(6).toString('hex')}` }).end();
    } catch (err) {
      state.refused.push((err as Error).message);
      res.writeHead(400).end((err as Error).message);
    }
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  state.origin = `https://127.0.0.1:${port}`;

  return {
    origin: state.origin,
    port,
    ca: cert,
    appSettings: () => ({
      config: { testPushService: { host: '127.0.0.1', port } },
      push: { ca: cert },
    }),
    received: state.received,
    connections: () => connections,
    silentHeld: () => silent.held.size,
    silentEnded: () => silent.ended,
    releaseSilent() {
      const held = [...silent.held];
      silent.held.clear();
      for (const socket of held) socket.destroy();
    },
    refused: state.refused,
    device() {
      const id = randomBytes(8).toString('hex');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const entry = { ecdh, auth, behaviour: 'accept' as DeviceBehaviour };
      devices.set(id, entry);
      return {
        id,
        subscription: {
          endpoint: `${state.origin}/push/${id}`,
          expirationTime: null,
          keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) },
        },
        behave(b) {
          entry.behaviour = b;
        },
      };
    },
    async close() {
      silent.held.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
