import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../../store/sqlite/store';
import type { Store } from '../../store/store';
import { SharedChanges } from './shared-changes';

let dir = '';
let store: Store;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'shared-changes-'));
  store = await openEmbeddedStore(dir, () => undefined);
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('changes seen by every server process (19.3)', () => {
  it("moves this process's revision at once and the other's at its next poll, calling its listeners once", async () => {
    // Two processes' watchers on the one store; polls are called by hand instead of by the timer.
    const here = new SharedChanges(store);
    const there = new SharedChanges(store);
    await Promise.all([here.init(), there.init()]);
    const heard: string[] = [];
    there.on('slider', () => heard.push('slider'));
    there.on('app-server', () => heard.push('app-server'));

    await here.bump('slider');
    expect(here.revision('slider')).toBe(1);
    expect(there.revision('slider')).toBe(0);
    await there.poll();
    expect(there.revision('slider')).toBe(1);
    expect(there.revision('app-server')).toBe(0);
    await there.poll();
    expect(heard).toEqual(['slider']);

    // The first change to a topic creates its document; later ones stamp it again.
    await here.bump('app-server');
    await here.bump('app-server');
    await there.poll();
    await here.poll();
    expect(heard).toEqual(['slider', 'app-server']);
    expect(here.revision('app-server')).toBe(2);
    expect(await store.collection('changes').count()).toBe(2);
  });

  it('knows, when it starts, the changes made before: only later ones count', async () => {
    const late = new SharedChanges(store);
    await late.init();
    await late.poll();
    expect(late.revision('slider')).toBe(0);
  });
});
