/**
 * How account actions are counted, before any hash or code check is spent: the budgets
 * (`RATE_RULES`), the refusal (429 with `Retry-After`) when an address is over, and the slow-down
 * of an email that many addresses are trying (rules in README.md beside this file).
 */
import type { FastifyBaseLogger } from 'fastify';
import { messages } from '../../domain/messages.js';
import { type HttpError, tooMany } from '../http/errors.js';
import { clientKey } from '../ratelimit/address.js';
import type { RateLimiter, RateRule } from '../ratelimit/ratelimit.js';
import { pacing, slowDownMs } from '../ratelimit/slowdown.js';

const MINUTE = 60_000;

/**
 * Budgets of each action, counted before any hash or code check is spent. Three counts per request:
 * - `pair`: this email from this client address. Blocks (429): a stranger's failures land on their
 *   own address's pair, never on the owner's.
 * - `address`: this client address, whatever the email. Blocks: one address hammering many emails.
 * - `email`: this email, from any address. Never blocks, since anyone can run it up; past its limit
 *   answers are slowed down (`api/ratelimit/slowdown.ts`), so guessing spread over many addresses
 *   stays slow.
 * A client address is an IPv4 address or an IPv6 /64 (`clientKey`).
 */
/** What a request that mails something (a code, or a notice to an account's owner) may spend; each action counts its own. */
const MAILED_CODE_BUDGET = {
  pair: { limit: 5, windowMs: 60 * MINUTE },
  address: { limit: 30, windowMs: 60 * MINUTE },
  email: { limit: 5, windowMs: 60 * MINUTE },
};

export const RATE_RULES = {
  /** Password guesses: a login, or the current password of a password change. */
  login: {
    pair: { limit: 10, windowMs: 15 * MINUTE },
    address: { limit: 100, windowMs: 15 * MINUTE },
    email: { limit: 10, windowMs: 15 * MINUTE },
  },
  /** Registrations (each mails a code, or a notice to a verified account's owner). */
  register: MAILED_CODE_BUDGET,
  /** Requests for a login code. */
  loginCode: MAILED_CODE_BUDGET,
  /** Requests for a reset code ("forgot password"): counted apart from login codes, so one never spends the other. */
  resetCode: MAILED_CODE_BUDGET,
  /** Code checks (registration, login, reset). A right, live code passes over every count (`checkCodeLimited`). */
  codeCheck: {
    pair: { limit: 10, windowMs: 15 * MINUTE },
    address: { limit: 60, windowMs: 15 * MINUTE },
    email: { limit: 10, windowMs: 15 * MINUTE },
  },
} satisfies Record<string, { pair: RateRule; address: RateRule; email: RateRule }>;

export type Action = keyof typeof RATE_RULES;

/** Who attempts: the client's address, and the log an operator reads (a request is one). */
export interface Attempt {
  ip: string;
  log: FastifyBaseLogger;
}

/** The counter of an email from one client address (a space appears in neither an email nor an address). */
function pairKey(action: Action, email: string, address: string): string {
  return `${action}:pair:${email} ${address}`;
}

interface Counted {
  /** The 429 to answer when the email's count from this address, or the address's own, is spent. */
  refusal: HttpError | null;
  /** How long to slow this answer down for the email's count (from every address). */
  delayMs: number;
}

/** The counting of account actions on one rate limiter (Redis or the database). */
export function attemptLimits(limiter: RateLimiter) {
  async function count(action: Action, email: string, attempt: Attempt): Promise<Counted> {
    const rules = RATE_RULES[action];
    const address = clientKey(attempt.ip);
    const [byPair, byAddress, byEmail] = await Promise.all([
      limiter.hit(pairKey(action, email, address), rules.pair),
      limiter.hit(`${action}:ip:${address}`, rules.address),
      limiter.hit(`${action}:email:${email}`, rules.email),
    ]);
    const refused = [byPair, byAddress].filter((d) => !d.allowed);
    return {
      refusal: refused.length
        ? tooMany(messages.tooManyAttempts, Math.max(...refused.map((d) => d.retryAfterMs)) / 1000)
        : null,
      delayMs: slowDownMs(byEmail.count, rules.email),
    };
  }

  async function slowDown(delayMs: number, action: Action, email: string, attempt: Attempt): Promise<void> {
    if (delayMs <= 0) return;
    // An operator sees an account under attack; the email may be logged, never a code or password.
    attempt.log.warn({ action, email, delayMs }, 'answer slowed down: many attempts on this email');
    await pacing.wait(delayMs);
  }

  return {
    /** Counts the attempt; refuses it (429) when its address is over, or slows it when the email is. */
    async limit(action: Action, email: string, attempt: Attempt): Promise<void> {
      const { refusal, delayMs } = await count(action, email, attempt);
      // A refusal answers at once: it costs the shop nothing, and waiting would only hold the socket.
      if (refusal) throw refusal;
      await slowDown(delayMs, action, email, attempt);
    },

    /**
     * A code check, counted like any action, except that a right, live code passes even when the
     * counts are over: the code itself bounds guessing (it dies after MAX_TRIES checks, each spent
     * before comparing), so the owner's mailed code always works. A wrong code over a count is 429.
     */
    async checkCodeLimited<T>(
      email: string,
      attempt: Attempt,
      check: () => Promise<T | null>,
    ): Promise<T | null> {
      const { refusal, delayMs } = await count('codeCheck', email, attempt);
      // As in `limit`, a refused request is not held; it is only checked, in case its code is right.
      if (!refusal) await slowDown(delayMs, 'codeCheck', email, attempt);
      const result = await check();
      if (result !== null) return result;
      if (refusal) throw refusal;
      return null;
    },

    /** A right password forgives this address's misses on the email (not the email's count: see README). */
    async forgive(email: string, attempt: Attempt): Promise<void> {
      await limiter.reset(pairKey('login', email, clientKey(attempt.ip)));
    },
  };
}
