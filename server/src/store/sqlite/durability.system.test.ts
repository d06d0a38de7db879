import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, spawnServer } from '../../test/spawn-server';

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('durability of acknowledged writes', () => {
  let dataDir = '';
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('keeps every registration the API acknowledged when the server is killed with SIGKILL', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'durability-'));
    const first = await spawnServer({ DATA_DIR: dataDir });
    const people = Array.from({ length: 8 }, (_, i) => ({
      name: `Person ${i}`,
      email: `person${i}@example.com`,
      password: `password-${i}`,
    }));
    const answers = await Promise.all(people.map((person) => post(`${first.url}/api/auth/register`, person)));
    expect(answers.map((a) => a.status)).toEqual(people.map(() => 201));
    // No graceful shutdown: the process gets no chance to flush anything.
    first.process.kill('SIGKILL');
    expect(await exited(first.process)).toBe('SIGKILL');

    const second = await spawnServer({ DATA_DIR: dataDir });
    try {
      for (const person of people) {
        const login = await post(`${second.url}/api/auth/login`, {
          email: person.email,
          password: person.password,
        });
        expect(login.status, person.email).toBe(200);
      }
    } finally {
      second.process.kill('SIGTERM');
      await exited(second.process);
    }
    // Two starts of the server and sixteen password hashes: more than the default on a busy machine.
  }, 60_000);

  it('keeps every acknowledged write when killed with SIGKILL in the middle of a burst, and starts again without complaint', async () => {
    const burstDir = await mkdtemp(path.join(tmpdir(), 'durability-burst-'));
    try {
      const first = await spawnServer({ DATA_DIR: burstDir, RATE_LIMIT_MAX: '100000' });
      const people = Array.from({ length: 200 }, (_, i) => ({
        name: `Burst ${i}`,
        email: `burst${i}@example.com`,
        password: `password-${i}-x`,
      }));
      const acknowledged: typeof people = [];
      let killed = false;
      await Promise.all(
        people.map(async (person) => {
          try {
            const answer = await post(`${first.url}/api/auth/register`, person);
            if (answer.status === 201) acknowledged.push(person);
          } catch {
            // cut off by the kill: never acknowledged
          }
          // Killed while the other registrations are still being written.
          if (!killed && acknowledged.length >= 15) {
            killed = true;
            first.process.kill('SIGKILL');
          }
        }),
      );
      expect(await exited(first.process)).toBe('SIGKILL');
      expect(acknowledged.length).toBeGreaterThanOrEqual(15);
      expect(acknowledged.length).toBeLessThan(people.length);

      const second = await spawnServer({ DATA_DIR: burstDir });
      try {
        for (const person of acknowledged) {
          const login = await post(`${second.url}/api/auth/login`, {
            email: person.email,
            password: person.password,
          });
          expect(login.status, person.email).toBe(200);
        }
      } finally {
        second.process.kill('SIGTERM');
        await exited(second.process);
      }
    } finally {
      await rm(burstDir, { recursive: true, force: true });
    }
  }, 60_000);
});
