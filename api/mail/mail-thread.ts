/**
 * nodemailer in a thread of its own. Building a message (MIME parts, boundaries and a Message-ID
 * from random bytes) and handing it over cost about a fifth of a placed order's time on the
 * request thread (`npm run bench -- orders`, 2026-11-29): every order mails the shopper. Here that
 * work runs beside the requests, on another core. The thread is plain JavaScript (a worker has no
 * TypeScript loader, as `api/backup`'s), started at the first mail and not holding the process open.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What a failed hand-over may say: the SMTP step, codes and the reason, never the message. */
export interface SendFailure {
  code?: string;
  command?: string;
  responseCode?: number;
  message: string;
}

export class MailThreadError extends Error {
  constructor(readonly failure: SendFailure) {
    super(failure.message);
  }
  get code() {
    return this.failure.code;
  }
  get command() {
    return this.failure.command;
  }
  get responseCode() {
    return this.failure.responseCode;
  }
}

export interface MailThread {
  /** Hands one message to nodemailer; the .eml file written, in folder mode. */
  send(message: Record<string, unknown>): Promise<{ file: string | null }>;
  close(): Promise<void>;
}

const CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { randomBytes } = require('node:crypto');
const { mkdir, writeFile } = require('node:fs/promises');
const path = require('node:path');
const nodemailer = require(workerData.nodemailer);
const transport = workerData.smtpUrl
  ? nodemailer.createTransport(workerData.smtpUrl)
  : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
parentPort.on('message', async ({ id, message }) => {
  try {
    const info = await transport.sendMail(message);
    let file = null;
    if (!workerData.smtpUrl) {
      await mkdir(workerData.outbox, { recursive: true });
      file = path.join(workerData.outbox, Date.now() + '-' + randomBytes(4).toString('hex') + '.eml');
      await writeFile(file, info.message, { mode: 0o600 });
    }
    parentPort.postMessage({ id, file });
  } catch (err) {
    const e = err || {};
    parentPort.postMessage({
      id,
      failure: {
        code: typeof e.code === 'string' ? e.code : undefined,
        command: typeof e.command === 'string' ? e.command : undefined,
        responseCode: typeof e.responseCode === 'number' ? e.responseCode : undefined,
        message: String(e.message || e),
      },
    });
  }
});`;

const require = createRequire(import.meta.url);

export function startMailThread(options: { smtpUrl: string | null; outbox: string }): MailThread {
  let worker: Worker | null = null;
  let next = 0;
  const waiting = new Map<number, { resolve(v: { file: string | null }): void; reject(e: Error): void }>();

  const settleAll = (err: Error) => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
    worker = null;
  };
  const started = (): Worker => {
    if (worker) return worker;
    const w = new Worker(CODE, {
      eval: true,
      workerData: {
        nodemailer: require.resolve('nodemailer'),
        smtpUrl: options.smtpUrl,
        outbox: options.outbox,
      },
    });
    w.on('message', (m: { id: number; file?: string | null; failure?: SendFailure }) => {
      const pending = waiting.get(m.id);
      if (!pending) return;
      waiting.delete(m.id);
      if (waiting.size === 0) w.unref();
      if (m.failure) pending.reject(new MailThreadError(m.failure));
      else pending.resolve({ file: m.file ?? null });
    });
    // A thread that dies takes its mail with it: each is failed (and retried by the mailer) on a new one.
    w.on('error', (err) => settleAll(err));
    w.on('exit', () => settleAll(new Error('the mail thread stopped')));
    w.unref();
    worker = w;
    return w;
  };

  return {
    send(message) {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        const w = started();
        // Held open only while a message is on its way.
        w.ref();
        w.postMessage({ id, message });
      });
    },
    async close() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
