import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import { clientKey } from '../../lib/client-address';
import { hashedKeyPart, type RateDecisions } from '../../lib/rate-limiter';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const ONE_MINUTE = 60 * 1000;
const TOO_MANY_EMAIL_CHANGES = 'Too many e-mail change requests.';

/** Limits on guessing and on sign-ups. */
export interface AuthLimits {
  /** Sign-in and reset requests from one address, whatever the e-mail. */
  perClient: number;
  /** Sign-in tries for one account from one address (a success starts afresh). */
  perAccountPerClient: number;
  /**
   * Sign-in tries for one account from all addresses together. Past it, only an address that has
   * not tried that account yet may try, once: a spread-out guesser is slowed to one try per
   * address while the owner, signing in from an address of their own, is never refused.
   */
  perAccount: number;
  /** Reset mails asked for one e-mail (each one lands in the owner's inbox). */
  resetsPerEmail: number;
  /** E-mail change mails to one address, whoever asks (each one lands in that inbox). */
  emailChangesPerAddress: number;
  /** E-mail changes one account asks for, whatever the address (each mails its owner too). */
  emailChangesPerAccount: number;
  /**
   * E-mails one address may bring into the counters per window (sign-in tries of an e-mail it
   * has not tried yet, resets of one nobody asked for): each adds keys to the store, so made-up
   * addresses cannot fill it. A right password gives its e-mail back.
   */
  emailsPerClient: number;
  windowMs: number;
  /** New accounts per minute from all addresses together. */
  registrationsPerMinute: number;
  /**
   * New accounts per minute from one address: its share of the budget above, so that one address
   * cannot spend the site's and shut registration for everyone else; enough for a class or an
   * office signing up together behind one address.
   */
  registrationsPerClient: number;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  perClient: 100,
  perAccountPerClient: 10,
  perAccount: 100,
  resetsPerEmail: 10,
  emailChangesPerAddress: 10,
  emailChangesPerAccount: 10,
  emailsPerClient: 20,
  windowMs: FIFTEEN_MINUTES,
  registrationsPerMinute: 60,
  registrationsPerClient: 20,
};

/** The counters one password check took, handed back by `succeeded`. */
export interface PasswordTry {
  account: string;
  pair: string;
  /** The address's count of e-mails (see AuthLimits.emailsPerClient). */
  emails: string;
}

function tooManyAttempts(reply: FastifyReply, wait: number, message = 'Too many attempts.'): AppError {
  reply.header('retry-after', String(wait));
  const minutes = Math.ceil(wait / 60);
  return new AppError(
    'RATE_LIMITED',
    `${message} Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
}

/**
 * The one guard on password guessing and sign-ups, made once by buildApp and counted in the store
 * (so the budgets are the site's, not one server process's): sign-in,
 * forgot-password and every check of a signed-in member's current password (account changes)
 * count against the same budgets, so a stolen session cannot guess the password faster than the
 * sign-in form could. Over a budget: 429 with Retry-After. Keys name an e-mail by its hash
 * (hashedKeyPart), so a key's size does not depend on what a client sends. Each check is one
 * decision of the store over every budget it reads and counts (`decide`), so requests at once
 * (two tabs, a double click) are counted as if they came one after the other.
 */
export class SignInLimiter {
  /** `counters` are the shared ones (SharedRateCounters): every try counts on every process at once. */
  constructor(
    private readonly counters: RateDecisions,
    private readonly limits: AuthLimits = DEFAULT_AUTH_LIMITS,
  ) {}

  /** Sign-in and reset requests from one address, whatever the e-mail. */
  async limitClient(request: FastifyRequest, reply: FastifyReply, action: string): Promise<void> {
    const key = `${action}:${clientKey(request.ip)}`;
    const wait = await this.counters.hit(key, this.limits.perClient, this.limits.windowMs);
    if (wait > 0) throw tooManyAttempts(reply, wait);
  }

  /** New accounts: the address's share, then all addresses together. */
  async limitRegistration(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { registrationsPerClient, registrationsPerMinute } = this.limits;
    const { wait, refusedBy } = await this.counters.decide([
      { key: `register:${clientKey(request.ip)}`, max: registrationsPerClient, windowMs: ONE_MINUTE },
      // Refused for everyone: then no account was made, and none comes off the address's share.
      { key: 'register', max: registrationsPerMinute, windowMs: ONE_MINUTE },
    ]);
    if (wait > 0)
      throw tooManyAttempts(
        reply,
        wait,
        refusedBy === 0 ? 'Too many new accounts from your address.' : 'Too many new accounts right now.',
      );
  }

  /**
   * The sign-in rule (see AuthLimits) for one password check on `email`. Tries are counted
   * before the password is checked (so parallel guesses count too); `succeeded` takes a right
   * password's try back.
   */
  async limitPasswordCheck(
    request: FastifyRequest,
    reply: FastifyReply,
    email: string,
  ): Promise<PasswordTry> {
    await this.limitClient(request, reply, 'login');
    const { perAccount, perAccountPerClient, emailsPerClient, windowMs } = this.limits;
    const client = clientKey(request.ip);
    const account = `login:${hashedKeyPart(email)}`;
    const pair = `${account}:${client}`;
    const emails = `emails:${client}`;
    const firstTry = { key: pair, isNew: true };
    const { wait, refusedBy } = await this.counters.decide([
      // Past the account's budget, only an address that has not tried it yet may try (once).
      { key: account, max: perAccount, windowMs, when: { key: pair, isNew: false } },
      // The first try of this e-mail from this address: a new key in the store.
      { key: emails, max: emailsPerClient, windowMs, when: firstTry },
      { key: pair, max: perAccountPerClient, windowMs },
      // A first try counts on the account whatever its total, kept with the limit it is compared to.
      { key: account, max: Number.POSITIVE_INFINITY, windowMs, limit: perAccount, when: firstTry },
    ]);
    if (wait > 0) throw refusedBy === 1 ? tooManyEmails(reply, wait) : tooManyAttempts(reply, wait);
    return { account, pair, emails };
  }

  /**
   * After the right password: this address starts afresh, and only this try comes off the
   * account-wide count, so the owner signing in never gives a guesser elsewhere a fresh budget.
   * The address's key for the e-mail is gone, and so is its place among the address's e-mails.
   */
  async succeeded(tries: PasswordTry): Promise<void> {
    await Promise.all([
      this.counters.reset(tries.pair),
      this.counters.refund(tries.account),
      this.counters.refund(tries.emails),
    ]);
  }

  /** Reset mails: per address, and per e-mail (each one lands in that inbox). */
  async limitReset(request: FastifyRequest, reply: FastifyReply, email: string): Promise<void> {
    await this.limitClient(request, reply, 'forgot');
    const { emailsPerClient, resetsPerEmail, windowMs } = this.limits;
    const key = `forgot:${hashedKeyPart(email)}`;
    const { wait, refusedBy } = await this.counters.decide([
      // An e-mail nobody asked a reset for in this window: a new key in the store.
      { key: `emails:${clientKey(request.ip)}`, max: emailsPerClient, windowMs, when: { key, isNew: true } },
      { key, max: resetsPerEmail, windowMs },
    ]);
    if (wait > 0) throw refusedBy === 0 ? tooManyEmails(reply, wait) : tooManyAttempts(reply, wait);
  }

  /**
   * E-mail change mails: per address they go to, whoever asks, and per account asking (its owner
   * gets a notice each time). Counted when asked, before the password is checked; a request
   * refused here counts against neither.
   */
  async limitEmailChange(reply: FastifyReply, userId: string, to: string): Promise<void> {
    const { emailChangesPerAccount, emailChangesPerAddress, windowMs } = this.limits;
    const { wait } = await this.counters.decide([
      { key: `email-change:account:${userId}`, max: emailChangesPerAccount, windowMs },
      { key: `email-change:to:${hashedKeyPart(to)}`, max: emailChangesPerAddress, windowMs },
    ]);
    if (wait > 0) throw tooManyAttempts(reply, wait, TOO_MANY_EMAIL_CHANGES);
  }
}

/** Over the e-mails one address may bring into the counters (see AuthLimits.emailsPerClient). */
function tooManyEmails(reply: FastifyReply, wait: number): AppError {
  return tooManyAttempts(reply, wait, 'Too many different e-mail addresses from your address.');
}
