import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clientKey } from '../../lib/client-address';
import { hashedKeyPart, SharedRateCounters } from '../../lib/rate-limiter';
import { notingKeys } from '../../store/counters.contract';
import type { Store } from '../../store/store';
import { type AuthLimits, DEFAULT_AUTH_LIMITS, SignInLimiter } from './sign-in-limiter';

/**
 * The sign-in limiter's rules asked for by several requests at once, on a store's counters: run
 * on every store (sign-in-limits.test.ts on SQLite, sign-in-limits.mongodb.test.ts on the MongoDB
 * stand-in and FerretDB). Every decision is one atomic step, so requests at once are counted as
 * the same requests one after the other.
 */
export function describeSignInLimitsContract(
  label: string,
  open: () => Promise<Store>,
  cleanup?: () => Promise<void>,
) {
  describe(`The sign-in limits, asked for at once: ${label}`, () => {
    let store: Store;
    let prefix = '';
    let run = 0;
    const used: string[] = [];
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });
    beforeEach(() => {
      run += 1;
    });
    afterEach(async () => {
      for (const key of new Set(used.splice(0))) await store.counters.delete(key);
    });
    const noting = () => notingKeys(store.counters, used);
    const ROUNDS = 4;
    const limiterWith = (limits: Partial<AuthLimits>) =>
      new SignInLimiter(new SharedRateCounters(noting(), prefix), { ...DEFAULT_AUTH_LIMITS, ...limits });
    const from = (ip: string) => ({ ip }) as FastifyRequest;
    const reply = { header: () => reply } as unknown as FastifyReply;
    /** 'ok', or the refusal's message without its "try again" part. */
    const outcomes = async (tries: Array<Promise<unknown>>) =>
      (await Promise.allSettled(tries)).map((settled) =>
        settled.status === 'fulfilled' ? 'ok' : String(settled.reason?.message).replace(/ Please try.*$/, ''),
      );
    const count = async (key: string) => (await store.counters.get(prefix + key))?.count ?? 0;

    it('parallel first tries of one account from one address: none refused, one new e-mail counted', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        prefix = `t${Date.now()}-${run}-first${round}:`;
        const limiter = limiterWith({});
        const ip = `198.51.100.${round + 1}`;
        const email = `member${round}@example.com`;
        const tries = Array.from({ length: 2 }, () => limiter.limitPasswordCheck(from(ip), reply, email));
        expect(await outcomes(tries)).toEqual(['ok', 'ok']);
        expect(await count(`emails:${clientKey(ip)}`)).toBe(1);
        expect(await count(`login:${hashedKeyPart(email)}:${clientKey(ip)}`)).toBe(2);
        expect(await count(`login:${hashedKeyPart(email)}`)).toBe(2);
        // A reset asked for twice at once: one new e-mail too.
        const resets = Array.from({ length: 2 }, () =>
          limiter.limitReset(from(ip), reply, `new${round}@example.com`),
        );
        expect(await outcomes(resets)).toEqual(['ok', 'ok']);
        expect(await count(`emails:${clientKey(ip)}`)).toBe(2);
      }
    });

    it('parallel new e-mails from one address: exactly its budget let in, each e-mail counted once', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        prefix = `t${Date.now()}-${run}-emails${round}:`;
        const limiter = limiterWith({ emailsPerClient: 3 });
        const ip = `203.0.113.${round + 1}`;
        const tryAll = (names: string[]) =>
          outcomes(
            names.map((name) => limiter.limitPasswordCheck(from(ip), reply, `${name}${round}@example.com`)),
          );
        // Two tries of each of two e-mails at once (two tabs): each e-mail counted once.
        expect(await tryAll(['a', 'a', 'b', 'b'])).toEqual(['ok', 'ok', 'ok', 'ok']);
        expect(await count(`emails:${clientKey(ip)}`)).toBe(2);
        // Five more e-mails at once, with room for one.
        const results = await tryAll(['c', 'd', 'e', 'f', 'g']);
        expect(results.filter((result) => result === 'ok')).toHaveLength(1);
        expect(results.filter((result) => result !== 'ok')).toEqual(
          Array(4).fill('Too many different e-mail addresses from your address.'),
        );
        expect(await count(`emails:${clientKey(ip)}`)).toBe(3);
      }
    });

    it('parallel sign-ups: each address its share, all addresses together the budget, never more', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        prefix = `t${Date.now()}-${run}-register${round}:`;
        const limiter = limiterWith({ registrationsPerClient: 3, registrationsPerMinute: 5 });
        const ips = ['192.0.2.10', '192.0.2.20'];
        const tries = ips.flatMap((ip) =>
          Array.from({ length: 6 }, () => limiter.limitRegistration(from(ip), reply)),
        );
        const results = await outcomes(tries);
        const admitted = (i: number) => results.slice(i * 6, i * 6 + 6).filter((r) => r === 'ok').length;
        expect(admitted(0) + admitted(1)).toBe(5);
        expect([admitted(0), admitted(1)].sort()).toEqual([2, 3]);
        expect(await count('register')).toBe(5);
        for (const [i, ip] of ips.entries()) expect(await count(`register:${ip}`)).toBe(admitted(i));
      }
    });
  });
}
