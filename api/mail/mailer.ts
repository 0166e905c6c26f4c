/**
 * Outgoing mail through nodemailer. With SMTP_URL set, mail goes to that SMTP
 * server; without it, each message is written as an .eml file under
 * DATA_DIR/mail/ (so a shop runs with nothing to configure, and a developer can
 * open the mail). `send` never blocks the caller: the answer to the request
 * goes out while the mail is still on its way; failures are logged with the
 * recipient and the server's reason (never the subject or text, which may hold
 * a one-time code), never thrown at the shopper. `drain` waits for mail in flight
 * (the app calls it when it closes).
 */
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { ShopProfile } from '../../domain/shop-profile.js';
import { startMailThread } from './mail-thread.js';
import { mailFooter, senderAddress, withFooter } from './shop-signature.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Where a reply goes when it is not the sender (the contact form: the shopper who wrote). */
  replyTo?: string;
  /** Extra header lines (a list mail's List-Unsubscribe); values the server made, never typed input. */
  headers?: Record<string, string>;
  /** A mail about an order (a refund, a payment that placed none): its footer adds the FSSAI line. */
  order?: boolean;
}

export interface Mailer {
  /** Queues the mail and returns at once. */
  send(mail: Mail): void;
  /** Waits until every mail queued so far was handed over (or failed). */
  drain(): Promise<void>;
  close(): Promise<void>;
  /** Where mail goes: an SMTP server or the outbox folder. */
  readonly target: 'smtp' | 'folder';
}

export interface MailerOptions {
  smtpUrl: string | null;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
  /**
   * The shop's profile, read when each mail is sent (so an owner's change is in the next mail): the
   * sender's name and every mail's footer (`shop-signature.ts`). Without it, `from` as configured.
   */
  shop?: () => Promise<ShopProfile>;
}

const RETRIES = 2;

/** What a failed send may log: the SMTP step, codes and the first line of the reason, nothing of the message. */
function sendFailure(err: unknown): Record<string, unknown> {
  const e = (err ?? {}) as { code?: unknown; command?: unknown; responseCode?: unknown; message?: unknown };
  return {
    code: typeof e.code === 'string' ? e.code : undefined,
    command: typeof e.command === 'string' ? e.command : undefined,
    responseCode: typeof e.responseCode === 'number' ? e.responseCode : undefined,
    message: typeof e.message === 'string' ? e.message.split('\n', 1)[0]?.slice(0, 200) : undefined,
  };
}

export function createMailer(options: MailerOptions): Mailer {
  const { log } = options;
  // nodemailer runs in a thread of its own (mail-thread.ts), off the requests' thread.
  const thread = startMailThread({ smtpUrl: options.smtpUrl, outbox: path.join(options.dataDir, 'mail') });
  const inFlight = new Set<Promise<void>>();

  /** The sender and the text as the shop signs them now; as configured when the profile cannot be read. */
  async function signed(
    mail: Mail,
  ): Promise<{ from: string | { name: string; address: string }; text: string }> {
    if (!options.shop) return { from: options.from, text: mail.text };
    try {
      const profile = await options.shop();
      return {
        from: { name: profile.name, address: senderAddress(options.from) },
        text: withFooter(mail.text, mailFooter(profile, { order: mail.order === true })),
      };
    } catch (err) {
      log.warn({ err }, 'mail: the shop profile could not be read; sent with the configured sender');
      return { from: options.from, text: mail.text };
    }
  }

  async function deliver(mail: Mail): Promise<void> {
    const { from, text } = await signed(mail);
    const message = {
      from,
      to: mail.to,
      subject: mail.subject,
      text,
      ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
      ...(mail.headers ? { headers: mail.headers } : {}),
    };
    for (let attempt = 0; ; attempt++) {
      try {
        const { file } = await thread.send(message);
        if (file) log.info({ to: mail.to, file }, 'mail written to the outbox folder');
        return;
      } catch (err) {
        if (attempt >= RETRIES) {
          // Never the subject, the text or the whole error: a code mail carries its code in both,
          // and nodemailer's error may quote the message; only what says why the server refused.
          log.error({ to: mail.to, reason: sendFailure(err) }, 'mail could not be sent');
          return;
        }
        // A short back-off: an SMTP server that just refused may be restarting.
        await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
      }
    }
  }

  return {
    target: options.smtpUrl ? 'smtp' : 'folder',
    send(mail) {
      const p = deliver(mail).finally(() => inFlight.delete(p));
      inFlight.add(p);
    },
    async drain() {
      await Promise.all([...inFlight]);
    },
    async close() {
      await this.drain();
      await thread.close();
    },
  };
}
