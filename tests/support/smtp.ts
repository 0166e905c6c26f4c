import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server for tests (the `smtp-server` package), listening on a
 * free port of 127.0.0.1. The app under test sends through nodemailer to
 * `url`, over a real SMTP conversation; tests read what arrived. `take(to)`
 * waits for the next mail to an address that was not taken yet, so a test
 * waits on the mail itself, never on a timer.
 */
export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  raw: string;
}

export interface TestSmtp {
  url: string;
  /** Every mail received so far, in arrival order. */
  mails: CapturedMail[];
  /** The next mail to `to` (lower-case) not taken before; waits until it arrives. */
  take(to: string): Promise<CapturedMail>;
  /** Mails received for an address, taken or not. */
  to(address: string): CapturedMail[];
  close(): Promise<void>;
}

function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  // Unfold continuation lines before looking for the header.
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const match = unfolded.match(new RegExp(`^${name}:\\s*(.*)$`, 'im'));
  return match?.[1]?.trim() ?? '';
}

/** The body of a plain-text mail, with quoted-printable soft breaks and escapes undone. */
export function textOf(mail: CapturedMail): string {
  const body = mail.raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n\n');
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The six-digit code in a code mail (it is in the subject and the body). */
export function codeIn(mail: CapturedMail): string {
  const match = mail.subject.match(/(\d{6})\s*$/);
  if (!match?.[1]) throw new Error(`no code in mail "${mail.subject}"`);
  return match[1];
}

/**
 * `refuse: true` makes a failing mail server: it reads each message whole (so a test still knows
 * what was sent, codes included) and then refuses it with a 550, so every send fails.
 */
export async function startSmtp(options: { refuse?: boolean } = {}): Promise<TestSmtp> {
  const mails: CapturedMail[] = [];
  const taken = new Set<CapturedMail>();
  const waiters: { to: string; resolve(mail: CapturedMail): void }[] = [];

  function offer(mail: CapturedMail): void {
    const i = waiters.findIndex((w) => mail.to.includes(w.to));
    if (i >= 0) {
      const [waiter] = waiters.splice(i, 1);
      taken.add(mail);
      waiter?.resolve(mail);
    }
  }

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail: CapturedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: header(raw, 'Subject'),
          raw,
        };
        mails.push(mail);
        offer(mail);
        if (options.refuse) {
          const refused = new Error('Mailbox unavailable, message refused') as Error & {
            responseCode: number;
          };
          refused.responseCode = 550;
          callback(refused);
          return;
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    take(to) {
      const address = to.toLowerCase();
      const ready = mails.find((m) => !taken.has(m) && m.to.includes(address));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiters.push({ to: address, resolve }));
    },
    to(address) {
      return mails.filter((m) => m.to.includes(address.toLowerCase()));
    },
    close() {
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
